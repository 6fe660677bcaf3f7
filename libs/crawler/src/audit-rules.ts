import type { CrawlError } from './crawl-error';
import type { ExtractedPage } from './html-extract';
import type { AuditIssue, PageFinding, Severity } from './types';

/** Every rule the audit can report. Severity and title are fixed per rule (docs/site-audit.md). */
export const RULES = {
  // critical
  http_5xx: { severity: 'critical', title: 'Server error (5xx)' },
  http_4xx: { severity: 'critical', title: 'Client error (4xx)' },
  fetch_failed: {
    severity: 'critical',
    title: 'Page could not be fetched (timeout, connection or address refused)',
  },
  broken_internal_link: { severity: 'critical', title: 'Internal link to a broken page' },
  redirect_loop: { severity: 'critical', title: 'Redirect loop' },
  redirect_limit: { severity: 'critical', title: 'More than 5 redirects' },
  missing_title: { severity: 'critical', title: 'Missing or empty <title>' },
  robots_txt_unreachable: {
    severity: 'critical',
    title: 'robots.txt unreachable (5xx/429/network): crawling disallowed',
  },
  // warning
  redirect_chain: { severity: 'warning', title: 'Redirect chain (2 or more hops)' },
  duplicate_title: { severity: 'warning', title: 'Duplicate title' },
  title_too_long: { severity: 'warning', title: 'Title longer than 60 characters' },
  missing_meta_description: { severity: 'warning', title: 'Missing meta description' },
  duplicate_meta_description: { severity: 'warning', title: 'Duplicate meta description' },
  missing_h1: { severity: 'warning', title: 'Missing <h1>' },
  images_missing_alt: { severity: 'warning', title: 'Images without alt attribute' },
  mixed_content: {
    severity: 'warning',
    title: 'Mixed content (http:// resources on an https page)',
  },
  slow_response: { severity: 'warning', title: 'Slow response' },
  large_page: { severity: 'warning', title: 'Large HTML page' },
  missing_lang: { severity: 'warning', title: 'Missing <html lang>' },
  missing_viewport: { severity: 'warning', title: 'Missing viewport meta tag' },
  thin_content: { severity: 'warning', title: 'Thin content (fewer than 200 words)' },
  invalid_structured_data: { severity: 'warning', title: 'Invalid JSON-LD structured data' },
  broken_resource: {
    severity: 'warning',
    title: 'Broken image, script or stylesheet',
  },
  // notice
  multiple_h1: { severity: 'notice', title: 'More than one <h1>' },
  noindex: { severity: 'notice', title: 'Page is noindex' },
  missing_canonical: { severity: 'notice', title: 'Missing canonical link' },
  blocked_by_robots: { severity: 'notice', title: 'URL blocked by robots.txt (not crawled)' },
  crawl_trap: { severity: 'notice', title: 'Crawl trap suppressed (URLs skipped)' },
} as const satisfies Record<string, { severity: Severity; title: string }>;

export type RuleId = keyof typeof RULES;

export const TITLE_MAX_CHARS = 60;
export const THIN_CONTENT_WORDS = 200;

export function issue(rule: RuleId, url: string, detail?: string): AuditIssue {
  const i: AuditIssue = { rule, severity: RULES[rule].severity, url };
  if (detail !== undefined) i.detail = detail;
  return i;
}

/** Everything the crawler learned about one committed page. */
export interface PageRecord {
  finding: PageFinding;
  extracted: ExtractedPage | null;
  /** Normalised same-site link targets (distinct, document order). */
  internalLinks: string[];
  /** Normalised canonical URL, if any. */
  canonicalUrl: string | null;
  /** Requested URL followed by every redirect target. */
  hops: string[];
  redirectProblem: 'loop' | 'limit' | null;
  fetchError: CrawlError | null;
  /** False when the final URL's content was already analysed under another record. */
  analysed: boolean;
}

interface RuleConfig {
  slowResponseMs: number;
  largePageBytes: number;
}

function isIndexableContent(r: PageRecord): boolean {
  return r.analysed && r.extracted !== null && !r.finding.noindex;
}

/** Rules decided by one page alone. */
export function pageRules(r: PageRecord, cfg: RuleConfig): AuditIssue[] {
  const out = [...redirectRules(r), ...responseRules(r.finding, r.fetchError, cfg)];
  const x = r.extracted;
  if (!r.analysed || x === null) return out;
  out.push(...markupRules(r.finding, x, cfg));
  if (r.finding.noindex) {
    out.push(issue('noindex', r.finding.finalUrl));
    return out; // content rules below only concern pages meant for the index
  }
  out.push(...contentRules(r.finding));
  return out;
}

/** A redirect loop, too many redirects, or a chain of more than one hop. */
function redirectRules(r: PageRecord): AuditIssue[] {
  const url = r.finding.url;
  if (r.redirectProblem === 'loop') return [issue('redirect_loop', url, r.hops.join(' → '))];
  if (r.redirectProblem === 'limit') return [issue('redirect_limit', url, r.hops.join(' → '))];
  if (r.hops.length > 2)
    return [issue('redirect_chain', url, `${r.hops.length - 1} hops: ${r.hops.join(' → ')}`)];
  return [];
}

/** The fetch itself: failed, answered 4xx/5xx, or slower than the threshold. */
function responseRules(
  f: PageFinding,
  fetchError: PageRecord['fetchError'],
  cfg: RuleConfig,
): AuditIssue[] {
  const at = f.finalUrl;
  const out: AuditIssue[] = [];
  if (fetchError) out.push(issue('fetch_failed', at, `${fetchError.code}: ${fetchError.message}`));
  if (f.status !== null && f.status >= 500) out.push(issue('http_5xx', at, `HTTP ${f.status}`));
  else if (f.status !== null && f.status >= 400)
    out.push(issue('http_4xx', at, `HTTP ${f.status}`));
  if (f.status !== null && f.responseMs > cfg.slowResponseMs) {
    const detail = `${Math.round(f.responseMs)} ms (threshold ${cfg.slowResponseMs} ms)`;
    out.push(issue('slow_response', at, detail));
  }
  return out;
}

/** An analysed page's size and markup: lang, viewport, alt texts, JSON-LD, mixed content. */
function markupRules(f: PageFinding, x: ExtractedPage, cfg: RuleConfig): AuditIssue[] {
  const at = f.finalUrl;
  const out: AuditIssue[] = [];
  if (f.bytes > cfg.largePageBytes || f.truncated) {
    const detail = f.truncated
      ? `body larger than ${f.bytes} bytes (cut at the limit)`
      : `${f.bytes} bytes`;
    out.push(issue('large_page', at, detail));
  }
  if (!x.lang) out.push(issue('missing_lang', at));
  if (!x.hasViewport) out.push(issue('missing_viewport', at));
  if (x.imagesWithoutAlt > 0)
    out.push(issue('images_missing_alt', at, `${x.imagesWithoutAlt} of ${x.images} images`));
  if (x.jsonLdInvalid > 0)
    out.push(
      issue('invalid_structured_data', at, `${x.jsonLdInvalid} JSON-LD block(s) do not parse`),
    );
  const insecure = at.startsWith('https:') ? insecureResources(x.resources, at) : [];
  if (insecure.length > 0) {
    const detail = `${insecure.length} resource(s): ${insecure.slice(0, 3).join(', ')}`;
    out.push(issue('mixed_content', at, detail));
  }
  return out;
}

/** The resources of an https page that load over http (unparsable ones are not counted). */
function insecureResources(resources: string[], at: string): string[] {
  return resources.filter((src) => {
    try {
      return new URL(src, at).protocol === 'http:';
    } catch {
      return false;
    }
  });
}

/** An indexable page's content: title, meta description, h1, canonical, word count. */
function contentRules(f: PageFinding): AuditIssue[] {
  const at = f.finalUrl;
  const out: AuditIssue[] = [];
  if (!f.title) out.push(issue('missing_title', at));
  else if ([...f.title].length > TITLE_MAX_CHARS)
    out.push(issue('title_too_long', at, `${[...f.title].length} characters`));
  if (!f.metaDescription) out.push(issue('missing_meta_description', at));
  if (f.h1Count === 0) out.push(issue('missing_h1', at));
  else if (f.h1Count > 1) out.push(issue('multiple_h1', at, `${f.h1Count} h1 elements`));
  if (!f.canonical) out.push(issue('missing_canonical', at));
  if (f.wordCount < THIN_CONTENT_WORDS) out.push(issue('thin_content', at, `${f.wordCount} words`));
  return out;
}

function duplicates(
  records: PageRecord[],
  key: (r: PageRecord) => string | null,
  rule: RuleId,
): void {
  const groups = new Map<string, PageRecord[]>();
  for (const r of records) {
    // Pages that declare another URL as canonical are expected to duplicate it.
    if (
      !isIndexableContent(r) ||
      (r.canonicalUrl !== null && r.canonicalUrl !== r.finding.finalUrl)
    )
      continue;
    const k = key(r);
    if (!k) continue;
    const g = groups.get(k);
    if (g) g.push(r);
    else groups.set(k, [r]);
  }
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    for (const r of group) {
      const others = group.filter((o) => o !== r).map((o) => o.finding.finalUrl);
      const detail = `same as ${others.slice(0, 5).join(', ')}${others.length > 5 ? ` and ${others.length - 5} more` : ''}`;
      r.finding.issues.push(issue(rule, r.finding.finalUrl, detail));
    }
  }
}

/** Rules that need the whole crawl: duplicates and broken internal links. */
export function siteRules(records: PageRecord[]): void {
  const norm = (s: string | null) => (s ? s.trim().toLowerCase().replace(/\s+/g, ' ') : null);
  duplicates(records, (r) => norm(r.finding.title), 'duplicate_title');
  duplicates(records, (r) => norm(r.finding.metaDescription), 'duplicate_meta_description');

  const outcome = new Map<string, PageRecord>();
  for (const r of records) {
    if (!outcome.has(r.finding.url)) outcome.set(r.finding.url, r);
  }
  for (const r of records) {
    if (!r.analysed) continue;
    for (const target of r.internalLinks) {
      const t = outcome.get(target);
      if (!t) continue; // not crawled (limits, robots, traps): unknown
      const s = t.finding.status;
      if (t.fetchError || t.redirectProblem || (s !== null && s >= 400)) {
        const why = t.fetchError
          ? t.fetchError.code
          : t.redirectProblem
            ? `redirect ${t.redirectProblem}`
            : `HTTP ${s}`;
        r.finding.issues.push(
          issue('broken_internal_link', r.finding.finalUrl, `${target} (${why})`),
        );
      }
    }
  }
}
