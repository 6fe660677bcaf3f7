import { issue, type PageRecord } from './audit-rules';
import { isCrawlError } from './crawl-error';
import type { ExtractedResource, ResourceKind } from './html-extract';
import type { FetchResult } from './http-fetcher';
import type { AuditIssue } from './types';
import { normalizeUrl } from './url-normalize';

/** Parallel resource checks at most (also bounded by the crawl's concurrency). */
export const RESOURCE_CONCURRENCY = 4;
const MAX_RESOURCE_REDIRECTS = 5;

/** One request of a resource check: HEAD or GET, no body read; rejects with CrawlError. */
export type ResourceRequest = (url: string, method: 'HEAD' | 'GET') => Promise<FetchResult>;

/** Why a resource is broken (e.g. `HTTP 404`, `PRIVATE_ADDRESS`), or null when it loads. */
export type ResourceVerdict = string | null;

/**
 * Checks one resource: HEAD, then GET when the server answers 405/501 to HEAD; redirects are
 * followed (≤ 5 hops, each a new request through the same SSRF-guarded fetcher). Broken = a
 * final status ≥ 400, a redirect loop/limit, or no answer (timeout, refused, private address).
 * Returns undefined when the check was cancelled (time limit): unknown, not reported.
 */
export async function checkResource(
  url: string,
  request: ResourceRequest,
): Promise<ResourceVerdict | undefined> {
  const seen = new Set<string>([url]);
  let current = url;
  for (let hop = 0; ; hop++) {
    let res: FetchResult;
    try {
      res = await request(current, 'HEAD');
      if (res.status === 405 || res.status === 501) res = await request(current, 'GET');
    } catch (err) {
      if (isCrawlError(err)) return err.code === 'CANCELLED' ? undefined : err.code;
      return 'UNREACHABLE';
    }
    if (res.status >= 300 && res.status < 400 && res.location) {
      const next = normalizeUrl(res.location, current);
      if (!next) return `HTTP ${res.status} to an invalid location`;
      if (seen.has(next)) return 'redirect loop';
      if (hop + 1 > MAX_RESOURCE_REDIRECTS) return 'more than 5 redirects';
      seen.add(next);
      current = next;
      continue;
    }
    return res.status >= 400 ? `HTTP ${res.status}` : null;
  }
}

/** The resources of the analysed pages: normalised, http(s) only, distinct per page. */
export function pageResources(r: PageRecord): Array<{ url: string; kind: ResourceKind }> {
  if (!r.analysed || r.extracted === null) return [];
  const base = r.extracted.baseHref
    ? (normalizeUrl(r.extracted.baseHref, r.finding.finalUrl) ?? r.finding.finalUrl)
    : r.finding.finalUrl;
  const out = new Map<string, ResourceKind>();
  for (const res of r.extracted.checkedResources as ExtractedResource[]) {
    const u = normalizeUrl(res.url, base);
    if (u && !out.has(u)) out.set(u, res.kind);
  }
  return [...out].map(([url, kind]) => ({ url, kind }));
}

/**
 * broken_resource: every distinct resource URL of the crawl is checked once (at most `cap`, in
 * page order, `concurrency` at a time); each page that uses a broken one gets one issue per
 * resource, detail `<kind> <url> (<why>)`. Resources beyond the cap are not checked.
 */
export async function brokenResources(
  records: PageRecord[],
  request: ResourceRequest,
  opts: { cap: number; concurrency: number },
): Promise<{ checked: number; skipped: number }> {
  const perPage = records.map((r) => pageResources(r));
  const unique: string[] = [];
  const known = new Set<string>();
  for (const list of perPage)
    for (const { url } of list)
      if (!known.has(url)) {
        known.add(url);
        unique.push(url);
      }
  const toCheck = unique.slice(0, Math.max(0, opts.cap));
  const verdicts = new Map<string, ResourceVerdict | undefined>();
  let next = 0;
  const worker = async () => {
    while (next < toCheck.length) {
      const url = toCheck[next++];
      verdicts.set(url, await checkResource(url, request));
    }
  };
  const lanes = Math.max(1, Math.min(opts.concurrency, toCheck.length));
  await Promise.all(Array.from({ length: lanes }, worker));
  records.forEach((r, i) => {
    const found: AuditIssue[] = [];
    for (const { url, kind } of perPage[i]) {
      const why = verdicts.get(url);
      if (why) found.push(issue('broken_resource', r.finding.finalUrl, `${kind} ${url} (${why})`));
    }
    r.finding.issues.push(...found);
  });
  return { checked: toCheck.length, skipped: unique.length - toCheck.length };
}
