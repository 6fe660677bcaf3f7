import { FIXTURE_CERT, type FixtureServer } from '../../../test/fixtures/site/fixture-server';
import { SLOW_PAGE_MS, startAuditFixture } from '../../../test/fixtures/site/audit-fixture-site';
import { runAudit } from './crawler';
import type { AuditOptions, AuditResult } from './types';

const UA = 'SeoApiAuditBot/1.0 (+https://seo-api.test/bot)';

/** [requested path, final path, status, depth] in crawl (BFS) order. */
const EXPECTED_PAGES: Array<[string, string, number | null, number]> = [
  ['/', '/', 200, 0],
  ['/about', '/about', 200, 1],
  ['/blog/', '/blog/', 200, 1],
  ['/faq', '/faq', 200, 1],
  ['/missing-title', '/missing-title', 200, 1],
  ['/dup-a', '/dup-a', 200, 1],
  ['/dup-b', '/dup-b', 200, 1],
  ['/dup-c', '/dup-c', 200, 1],
  ['/long-title', '/long-title', 200, 1],
  ['/no-description', '/no-description', 200, 1],
  ['/no-h1', '/no-h1', 200, 1],
  ['/two-h1', '/two-h1', 200, 1],
  ['/images', '/images', 200, 1],
  ['/noindex', '/noindex', 200, 1],
  ['/noindex-header', '/noindex-header', 200, 1],
  ['/noindex-nofollow', '/noindex-nofollow', 200, 1],
  ['/no-canonical', '/no-canonical', 200, 1],
  ['/no-lang', '/no-lang', 200, 1],
  ['/no-viewport', '/no-viewport', 200, 1],
  ['/mixed', '/mixed', 200, 1],
  ['/slow', '/slow', 200, 1],
  ['/huge', '/huge', 200, 1],
  ['/thin', '/thin', 200, 1],
  ['/bad-jsonld', '/bad-jsonld', 200, 1],
  ['/variant', '/variant', 200, 1],
  ['/server-error', '/server-error', 500, 1],
  ['/gone', '/gone', 404, 1],
  ['/timeout', '/timeout', null, 1],
  ['/chain-1', '/chain-final', 200, 1],
  ['/loop-a', '/loop-a', 301, 1],
  ['/redirect-to-about', '/about', 200, 1],
  ['/go-external', 'https://example.com/', 302, 1],
  ['/doc.pdf', '/doc.pdf', 200, 1],
  ['/calendar/2026-11', '/calendar/2026-11', 200, 1],
  ['/deep/1', '/deep/1', 200, 1],
  ['/blog/post-1', '/blog/post-1', 200, 2],
  ['/blog/post-2', '/blog/post-2', 200, 2],
  ['/noindex-child', '/noindex-child', 200, 2], // links on noindex pages are followed
  ['/canonical-only', '/canonical-only', 200, 2], // discovered through /variant's canonical
  ['/calendar/2026-10', '/calendar/2026-10', 200, 2],
  ['/calendar/2026-12', '/calendar/2026-12', 200, 2],
  ['/calendar/2026-11-01', '/calendar/2026-11-01', 200, 2], // 4th calendar URL: the pattern cap
  ['/deep/2', '/deep/2', 200, 2],
  ['/deep/3', '/deep/3', 200, 3], // maxDepth 3: /deep/4 is never requested
];

/** [rule, severity, path] of every issue. */
const EXPECTED_ISSUES: Array<[string, string, string]> = [
  ['broken_internal_link', 'critical', '/'], // → /server-error
  ['broken_internal_link', 'critical', '/'], // → /gone
  ['broken_internal_link', 'critical', '/'], // → /timeout
  ['broken_internal_link', 'critical', '/'], // → /loop-a
  ['missing_title', 'critical', '/missing-title'],
  ['duplicate_title', 'warning', '/dup-a'],
  ['duplicate_meta_description', 'warning', '/dup-a'],
  ['duplicate_title', 'warning', '/dup-b'],
  ['duplicate_meta_description', 'warning', '/dup-b'],
  ['title_too_long', 'warning', '/long-title'],
  ['missing_meta_description', 'warning', '/no-description'],
  ['missing_h1', 'warning', '/no-h1'],
  ['multiple_h1', 'notice', '/two-h1'],
  ['images_missing_alt', 'warning', '/images'],
  ['noindex', 'notice', '/noindex'], // no missing_title: content rules skip noindex pages
  ['noindex', 'notice', '/noindex-header'],
  ['noindex', 'notice', '/noindex-nofollow'],
  ['missing_canonical', 'notice', '/no-canonical'],
  ['missing_lang', 'warning', '/no-lang'],
  ['missing_viewport', 'warning', '/no-viewport'],
  ['mixed_content', 'warning', '/mixed'],
  ['slow_response', 'warning', '/slow'],
  ['large_page', 'warning', '/huge'],
  ['thin_content', 'warning', '/thin'],
  ['invalid_structured_data', 'warning', '/bad-jsonld'],
  ['http_5xx', 'critical', '/server-error'],
  ['http_4xx', 'critical', '/gone'],
  ['fetch_failed', 'critical', '/timeout'],
  ['redirect_chain', 'warning', '/chain-1'],
  ['redirect_loop', 'critical', '/loop-a'],
  ['blocked_by_robots', 'notice', '/private/secret'],
  ['crawl_trap', 'notice', '/calendar/2026-11-02'],
];

describe('runAudit on the fixture website (every rule planted once)', () => {
  let site: FixtureServer;
  let result: AuditResult;
  const progress: Array<[number, number]> = [];
  const options = (): AuditOptions => ({
    startUrl: `${site.origin}/`,
    maxPages: 100,
    maxDepth: 3,
    userAgent: UA,
    allowPrivateNetworks: true,
    concurrency: 4,
    politenessDelayMs: 0,
    requestTimeoutMs: 2500, // /timeout never answers; /slow answers after 1.2 s
    slowResponseMs: SLOW_PAGE_MS - 200, // far above a normal page even on a busy machine
    maxUrlsPerPattern: 4,
    tlsCa: FIXTURE_CERT,
    // The fixture's images are not served and /mixed references cdn.example.com (outside DNS):
    // broken_resource is asserted on its own local site in resource-check.spec.ts.
    maxResourceChecks: 0,
  });
  const rel = (u: string) => u.replace(site.origin, '');
  const page = (p: string) => result.pages.find((x) => rel(x.url) === p)!;

  beforeAll(async () => {
    site = await startAuditFixture();
    result = await runAudit({ ...options(), onProgress: (d, p) => void progress.push([d, p]) });
  });
  afterAll(async () => {
    await site.close();
  });

  it('crawls exactly the expected pages in BFS order (scope, depth, robots, dedup, traps)', () => {
    expect(result.pages.map((p) => [rel(p.url), rel(p.finalUrl), p.status, p.depth])).toEqual(
      EXPECTED_PAGES,
    );
    expect(result.pagesCrawled).toBe(EXPECTED_PAGES.length);
    expect(result.truncated).toBe(false);
    expect(result.domain).toBe('127.0.0.1');
  });

  it('reports exactly the planted issues', () => {
    const actual = result.issues.map((i) => [i.rule, i.severity, rel(i.url)]);
    expect(actual).toEqual(EXPECTED_ISSUES);
    expect(result.issueCounts).toEqual({ critical: 9, warning: 16, notice: 7, total: 32 });
  });

  it('explains the issues in detail', () => {
    const detail = (rule: string) =>
      result.issues.filter((i) => i.rule === rule).map((i) => i.detail);
    expect(detail('broken_internal_link')).toEqual([
      `${site.origin}/server-error (HTTP 500)`,
      `${site.origin}/gone (HTTP 404)`,
      `${site.origin}/timeout (TIMEOUT)`,
      `${site.origin}/loop-a (redirect loop)`,
    ]);
    expect(detail('redirect_chain')).toEqual([
      `3 hops: ${['/chain-1', '/chain-2', '/chain-3', '/chain-final'].map((p) => site.origin + p).join(' → ')}`,
    ]);
    expect(detail('redirect_loop')).toEqual([
      ['/loop-a', '/loop-b', '/loop-a'].map((p) => site.origin + p).join(' → '),
    ]);
    expect(detail('images_missing_alt')).toEqual(['2 of 4 images']); // alt="" is a valid decorative image
    expect(detail('mixed_content')[0]).toMatch(
      /^2 resource\(s\): http:\/\/127\.0\.0\.1:\d+\/insecure\.png, http:\/\/cdn\.example\.com\/lib\.js$/,
    );
    expect(detail('fetch_failed')[0]).toMatch(/^TIMEOUT: /);
    expect(detail('duplicate_title')).toEqual([
      `same as ${site.origin}/dup-b`,
      `same as ${site.origin}/dup-a`,
    ]);
    expect(detail('crawl_trap')).toEqual(['date_pattern: /calendar/{date}?']);
  });

  it('cuts bodies at maxBodyBytes (default 2 MiB) and flags them', () => {
    const huge = page('/huge');
    expect(huge.bytes).toBe(2 * 1024 * 1024);
    expect(huge.truncated).toBe(true);
  });

  it('decodes gzip, br and deflate bodies', () => {
    expect(page('/about').title).toBe('Page /about'); // gzip
    expect(page('/blog/').title).toBe('Page /blog/'); // br
    expect(page('/faq').title).toBe('Page /faq'); // deflate
    expect(page('/faq').structuredDataTypes).toEqual(['FAQPage']);
    expect(page('/about').structuredDataTypes).toEqual(['Organization', 'Person']);
  });

  it('never requests robots-disallowed, nofollow-only, too deep, duplicate or off-site URLs', () => {
    const requested = site.hits.map((h) => h.path);
    for (const p of [
      '/private/secret',
      '/never-crawled',
      '/deep/4',
      '/calendar/2026-11-02',
      '/calendar/2026-09',
    ]) {
      expect(requested).not.toContain(p);
    }
    expect(requested.filter((p) => p === '/about')).toHaveLength(2); // page itself + /redirect-to-about's hop
    expect(requested.filter((p) => p.startsWith('/about?'))).toHaveLength(0); // utm variant normalised away
    expect(requested[0]).toBe('/robots.txt');
    expect(new Set(site.hits.map((h) => h.userAgent))).toEqual(new Set([UA]));
  });

  it('redirected URLs are reported once: an already analysed final URL is not analysed again', () => {
    const r = page('/redirect-to-about');
    expect(r.title).toBeNull();
    expect(r.issues).toEqual([]);
    expect(r.redirects).toBe(1);
  });

  it('computes total_score with the documented formula', () => {
    // Per page: 100 − 20·critical − 6·warning − 1.5·notice (floored at 0); mean over 44 pages.
    // Penalties: / 80, missing-title 20, dup-a 12, dup-b 12, long-title 6, no-description 6, no-h1 6,
    // two-h1 1.5, images 6, 3×noindex 4.5, no-canonical 1.5, no-lang 6, no-viewport 6, mixed 6,
    // slow 6, huge 6, thin 6, bad-jsonld 6, server-error 20, gone 20, timeout 20, chain-1 6, loop-a 20.
    const penalty = 80 + 20 + 12 + 12 + 6 * 3 + 1.5 + 6 + 4.5 + 1.5 + 6 * 7 + 20 * 3 + 6 + 20;
    expect(penalty).toBe(283.5);
    // Site-level issues are notices only (robots-blocked URL, trap): no site penalty.
    expect(result.totalScore).toBe(Math.round((100 - penalty / 44) * 10) / 10);
    expect(result.totalScore).toBe(93.6);
  });

  it('computes the GEO checks and geo_score', () => {
    const checks = Object.fromEntries(result.geo.checks.map((c) => [c.check, c]));
    expect(result.geo.checks.reduce((s, c) => s + c.weight, 0)).toBe(100);
    expect(checks.ai_crawlers_allowed).toMatchObject({ passed: false, score: 0.8 });
    expect(checks.ai_crawlers_allowed.detail).toContain('blocked: GPTBot, CCBot');
    expect(checks.llms_txt).toMatchObject({ passed: true, score: 1 });
    // 34 content pages (2xx HTML, analysed, indexable).
    expect(checks.structured_data.detail).toMatch(/^4\/34 /); // /, /about, /faq, /blog/post-1
    expect(checks.heading_structure.detail).toMatch(/^32\/34 /); // all but /no-h1 and /two-h1
    expect(checks.question_headings_or_faq.detail).toMatch(/^2\/34 /); // /faq, /blog/post-1
    expect(checks.author_and_date.detail).toMatch(/^2\/34 /); // /about (meta), /blog/post-1 (JSON-LD)
    expect(checks.meta_descriptions.detail).toMatch(/^33\/34 /);
    expect(checks.content_depth.detail).toMatch(/^1\/34 /); // only /huge has ≥ 300 words
    const s = (share: number, target: number) =>
      Math.round(Math.min(1, share / target) * 1000) / 1000;
    const expected =
      20 * 0.8 +
      10 +
      15 * s(4 / 34, 0.5) +
      10 * s(32 / 34, 0.8) +
      10 * s(2 / 34, 0.2) +
      10 * s(2 / 34, 0.5) +
      10 * s(33 / 34, 0.9) +
      15 * s(1 / 34, 0.5);
    expect(result.geoScore).toBe(Math.round(expected * 10) / 10);
  });

  it('summarises rules, most severe and most frequent first', () => {
    expect(result.ruleSummary[0]).toMatchObject({
      rule: 'broken_internal_link',
      severity: 'critical',
      count: 4,
      urls: [`${site.origin}/`],
    });
    expect(result.ruleSummary.map((r) => r.rule)).toHaveLength(
      new Set(EXPECTED_ISSUES.map((i) => i[0])).size,
    );
    expect(result.ruleSummary.every((r) => r.title.length > 0)).toBe(true);
  });

  it('reports progress after every page, ending at pages crawled', () => {
    expect(progress).toHaveLength(EXPECTED_PAGES.length);
    expect(progress.map((p) => p[0])).toEqual(EXPECTED_PAGES.map((_, i) => i + 1));
    expect(progress.every(([d, p]) => p >= d && p <= 100)).toBe(true);
    expect(progress[progress.length - 1]).toEqual([44, 44]);
  });

  it('is deterministic whatever the concurrency', async () => {
    const again = await runAudit({ ...options(), concurrency: 8 });
    expect(again.pages.map((p) => [rel(p.url), p.status, p.depth])).toEqual(
      EXPECTED_PAGES.map(([u, , s, d]) => [u, s, d]),
    );
    expect(again.issues.map((i) => [i.rule, rel(i.url)])).toEqual(
      EXPECTED_ISSUES.map(([r, , u]) => [r, u]),
    );
  });
});
