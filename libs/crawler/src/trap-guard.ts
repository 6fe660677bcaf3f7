/**
 * Crawl-trap resistance, applied to every newly discovered URL before it is queued
 * (in deterministic commit order, so the same site always yields the same crawl).
 *
 *  - url_too_long: more than maxUrlLength characters.
 *  - repeated_segments: a path segment that occurs 3+ times (/a/b/a/b/a/b, relative-link loops)
 *    or a path deeper than 15 segments.
 *  - query_variants: more than maxQueryVariants distinct query strings for one path
 *    (faceted navigation, ?month=... calendars, session-like parameters).
 *  - date_pattern: more than maxUrlsPerPattern URLs sharing one date-shaped pattern, e.g.
 *    /calendar/2026-11, /calendar/2026-12-01, /events/2026/11/21 → /calendar/{date}
 *    (endless calendars). Ordinary numeric ids (/product/123) are not date-shaped.
 */
type TrapReason = 'url_too_long' | 'repeated_segments' | 'query_variants' | 'date_pattern';

interface TrapVerdict {
  reason: TrapReason;
  pattern: string;
}

const YEAR = /^(19|20|21)\d{2}$/;
const SMALL_NUM = /^\d{1,2}$/;
const DATE_TOKEN = /^(19|20|21)\d{2}[-_.]?(0?[1-9]|1[0-2])([-_.]?(0?[1-9]|[12]\d|3[01]))?$/;

function datePattern(segments: string[]): string | null {
  const out: string[] = [];
  let dated = false;
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i];
    if (DATE_TOKEN.test(s)) {
      out.push('{date}');
      dated = true;
    } else if (YEAR.test(s) && i + 1 < segments.length && SMALL_NUM.test(segments[i + 1])) {
      let j = i + 1;
      while (j < segments.length && j <= i + 2 && SMALL_NUM.test(segments[j])) j++;
      out.push('{date}');
      dated = true;
      i = j - 1;
    } else {
      out.push(s);
    }
  }
  return dated ? out.join('/') : null;
}

export class TrapGuard {
  private readonly queryVariants = new Map<string, Set<string>>();
  private readonly patternCounts = new Map<string, number>();

  constructor(
    private readonly maxUrlLength: number,
    private readonly maxQueryVariants: number,
    private readonly maxUrlsPerPattern: number,
  ) {}

  /** Returns null when the URL may be queued (and counts it), else why it is refused. */
  admit(url: string): TrapVerdict | null {
    const u = new URL(url);
    const segments = u.pathname.split('/').filter((s) => s !== '');
    const shape = this.shapeVerdict(url, u, segments);
    if (shape) return shape;
    const pattern = datedPattern(u, segments);
    const variants = u.search ? this.variantsOf(`${u.host}${u.pathname}`) : undefined;
    if (variants && !variants.has(u.search) && variants.size >= this.maxQueryVariants) {
      return {
        reason: 'query_variants',
        pattern: `${u.pathname}?{${this.maxQueryVariants}+ variants}`,
      };
    }
    if (pattern !== null && (this.patternCounts.get(pattern) ?? 0) >= this.maxUrlsPerPattern) {
      return { reason: 'date_pattern', pattern: pattern.slice(pattern.indexOf('/')) };
    }
    if (variants) variants.add(u.search);
    if (pattern !== null)
      this.patternCounts.set(pattern, (this.patternCounts.get(pattern) ?? 0) + 1);
    return null;
  }

  /** Too long a URL, or a path of too many or repeated segments. */
  private shapeVerdict(url: string, u: URL, segments: string[]): TrapVerdict | null {
    if (url.length > this.maxUrlLength)
      return { reason: 'url_too_long', pattern: `${u.pathname.slice(0, 80)}…` };
    const seen = new Map<string, number>();
    for (const s of segments) seen.set(s, (seen.get(s) ?? 0) + 1);
    if (segments.length > 15 || [...seen.values()].some((n) => n >= 3)) {
      return { reason: 'repeated_segments', pattern: u.pathname.slice(0, 120) };
    }
    return null;
  }

  /** The query strings seen for one host and path (made empty on first sight). */
  private variantsOf(pathKey: string): Set<string> {
    let variants = this.queryVariants.get(pathKey);
    if (!variants) {
      variants = new Set();
      this.queryVariants.set(pathKey, variants);
    }
    return variants;
  }
}

/**
 * The URL's date pattern (dates in the path or the query replaced by placeholders, the other
 * query values by `*`), or null when it has no date.
 */
function datedPattern(u: URL, segments: string[]): string | null {
  const params = [...u.searchParams.entries()];
  const values = params.map(([k, v]) =>
    DATE_TOKEN.test(v) || YEAR.test(v) ? `${k}={date}` : `${k}=*`,
  );
  const pathPattern = datePattern(segments);
  const queryDated = params.some(([, v]) => DATE_TOKEN.test(v) || YEAR.test(v));
  return pathPattern !== null || queryDated
    ? `${u.host}/${pathPattern ?? segments.join('/')}?${values.join('&')}`
    : null;
}
