import * as net from 'node:net';
import {
  FIXTURE_CERT,
  type FixtureServer,
  page,
  sendHtml,
  serve,
} from '../../../test/fixtures/site/fixture-server';
import { startAuditFixture } from '../../../test/fixtures/site/audit-fixture-site';
import { CrawlError } from './crawl-error';
import { runAudit } from './crawler';
import type { AuditOptions } from './types';

const UA = 'SeoApiAuditBot/1.0';

async function codeOf(p: Promise<unknown>): Promise<string | null> {
  try {
    await p;
    return null;
  } catch (e) {
    return e instanceof CrawlError ? e.code : `unexpected: ${String(e)}`;
  }
}

describe('crawl limits on the fixture website', () => {
  let site: FixtureServer;
  const opts = (extra: Partial<AuditOptions> = {}): AuditOptions => ({
    startUrl: `${site.origin}/`,
    maxPages: 100,
    maxDepth: 3,
    userAgent: UA,
    allowPrivateNetworks: true,
    politenessDelayMs: 0,
    requestTimeoutMs: 1500,
    tlsCa: FIXTURE_CERT,
    ...extra,
  });
  const rel = (u: string) => u.replace(site.origin, '');

  beforeAll(async () => {
    site = await startAuditFixture();
  });
  afterAll(async () => {
    await site.close();
  });
  beforeEach(() => {
    site.hits.length = 0;
  });

  it('max_pages: stops at exactly maxPages, the first URLs in BFS order, and flags truncated', async () => {
    // Resource checks (images etc.) are not pages: off here so every request counted is a page.
    const r = await runAudit(opts({ maxPages: 5, maxResourceChecks: 0 }));
    expect(r.pages.map((p) => rel(p.url))).toEqual([
      '/',
      '/about',
      '/blog/',
      '/faq',
      '/missing-title',
    ]);
    expect(r.truncated).toBe(true);
    expect(r.truncatedReason).toBe('max_pages');
    const pagesRequested = site.hits
      .map((h) => h.path)
      .filter((p) => p !== '/robots.txt' && p !== '/llms.txt');
    expect(pagesRequested.sort()).toEqual(
      ['/', '/about', '/blog/', '/faq', '/missing-title'].sort(),
    );
  });

  it('depth 1: only the start page and its direct links', async () => {
    const r = await runAudit(
      opts({ maxDepth: 1, maxPages: 100, concurrency: 8, requestTimeoutMs: 1500 }),
    );
    expect(Math.max(...r.pages.map((p) => p.depth))).toBe(1);
    expect(r.pagesCrawled).toBe(35); // start + 34 distinct crawlable links (see crawler.spec.ts)
  });

  it('time limit: stops, reports what was crawled, flags truncated', async () => {
    const started = Date.now();
    const r = await runAudit(opts({ concurrency: 1, politenessDelayMs: 60, timeLimitMs: 400 }));
    expect(Date.now() - started).toBeLessThan(1500);
    expect(r.truncated).toBe(true);
    expect(r.truncatedReason).toBe('time_limit');
    expect(r.pagesCrawled).toBeGreaterThanOrEqual(1);
    expect(r.pagesCrawled).toBeLessThan(10);
    expect(r.pages[0].url).toBe(`${site.origin}/`);
  });

  it('cancel: the signal rejects the crawl with CANCELLED', async () => {
    const ac = new AbortController();
    const p = runAudit(
      opts({
        concurrency: 1,
        signal: ac.signal,
        onProgress: (done) => (done === 3 ? ac.abort() : undefined),
      }),
    );
    expect(await codeOf(p)).toBe('CANCELLED');
    const already = new AbortController();
    already.abort();
    expect(await codeOf(runAudit(opts({ signal: already.signal })))).toBe('CANCELLED');
  });

  it('an onProgress failure aborts the crawl with that error', async () => {
    await expect(
      runAudit(opts({ onProgress: () => Promise.reject(new Error('db down')) })),
    ).rejects.toThrow('db down');
  });

  it('politeness: requests to one host start at least politenessDelayMs apart', async () => {
    // Plain HTTP so that TLS handshakes do not blur the arrival times.
    const links = ['/a', '/b', '/c', '/d'];
    const plain = await serve({
      '/robots.txt': (_q, res) => sendHtml(res, '', { status: 404 }),
      '/': (_q, res, me) =>
        sendHtml(
          res,
          page(`${me.origin}/`, { body: links.map((l) => `<a href="${l}">${l}</a>`).join('') }),
        ),
      ...Object.fromEntries(
        links.map((l) => [
          l,
          (_q: unknown, res: import('node:http').ServerResponse, me: FixtureServer) =>
            sendHtml(res, page(`${me.origin}${l}`)),
        ]),
      ),
    });
    try {
      const started = performance.now();
      const r = await runAudit({
        startUrl: `${plain.origin}/`,
        maxPages: 5,
        maxDepth: 1,
        userAgent: UA,
        allowPrivateNetworks: true,
        concurrency: 4,
        politenessDelayMs: 100,
      });
      expect(r.pagesCrawled).toBe(5);
      const at = plain.hits.map((h) => h.at);
      expect(at).toHaveLength(7); // robots.txt, /, llms.txt, /a../d
      // Starts are spaced by the crawler; arrivals jitter by the latency of each request. The very
      // first request of a crawl carries a one-off setup latency (tens of ms on a busy machine),
      // so its gap is covered by the overall span instead of a per-gap bound.
      for (let i = 2; i < at.length; i++) expect(at[i] - at[i - 1]).toBeGreaterThanOrEqual(85);
      // Timers and performance.now() differ by up to ~1 ms per step.
      expect(at[at.length - 1] - at[0]).toBeGreaterThanOrEqual(6 * 100 - 60);
      expect(at[at.length - 1] - started).toBeGreaterThanOrEqual(600 - 6);
    } finally {
      await plain.close();
    }
  });
});

describe('robots.txt availability (RFC 9309) and start-page failures', () => {
  const servers: FixtureServer[] = [];
  const make = async (robots: (res: import('node:http').ServerResponse) => void) => {
    const s = await serve({
      '/robots.txt': (_q, res) => robots(res),
      '/': (_q, res, me) =>
        sendHtml(res, page(`${me.origin}/`, { body: '<a href="/two">two</a>' })),
      '/two': (_q, res, me) => sendHtml(res, page(`${me.origin}/two`)),
    });
    servers.push(s);
    return s;
  };
  const opts = (s: FixtureServer, extra: Partial<AuditOptions> = {}): AuditOptions => ({
    startUrl: `${s.origin}/`,
    maxPages: 10,
    maxDepth: 2,
    userAgent: UA,
    allowPrivateNetworks: true,
    politenessDelayMs: 0,
    requestTimeoutMs: 1000,
    ...extra,
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });

  it('5xx robots.txt: disallow all, nothing crawled, critical robots_txt_unreachable, score 0', async () => {
    const s = await make((res) =>
      sendHtml(res, 'oops', { status: 503, contentType: 'text/plain' }),
    );
    const r = await runAudit(opts(s));
    expect(r.pagesCrawled).toBe(0);
    expect(r.issues).toEqual([
      {
        rule: 'robots_txt_unreachable',
        severity: 'critical',
        url: `${s.origin}/robots.txt`,
        detail: 'robots.txt answered HTTP 503',
      },
    ]);
    expect(r.totalScore).toBe(0);
    expect(s.hits.map((h) => h.path)).toEqual(['/robots.txt']);
  });

  it('429 robots.txt is treated like 5xx', async () => {
    const s = await make((res) =>
      sendHtml(res, 'slow down', { status: 429, contentType: 'text/plain' }),
    );
    const r = await runAudit(opts(s));
    expect(r.pagesCrawled).toBe(0);
    expect(r.issues.map((i) => i.rule)).toEqual(['robots_txt_unreachable']);
  });

  it('4xx robots.txt: allow all', async () => {
    const s = await make((res) =>
      sendHtml(res, 'nope', { status: 404, contentType: 'text/plain' }),
    );
    const r = await runAudit(opts(s));
    expect(r.pages.map((p) => p.url)).toEqual([`${s.origin}/`, `${s.origin}/two`]);
  });

  it('robots.txt rules for our product token win over *', async () => {
    const s = await make((res) =>
      sendHtml(res, 'User-agent: *\nDisallow: /\n\nUser-agent: SeoApiAuditBot\nDisallow: /two\n', {
        contentType: 'text/plain',
      }),
    );
    const r = await runAudit(opts(s));
    expect(r.pages.map((p) => p.url)).toEqual([`${s.origin}/`]);
    expect(r.issues.filter((i) => i.rule === 'blocked_by_robots').map((i) => i.url)).toEqual([
      `${s.origin}/two`,
    ]);
  });

  it('a start page disallowed by robots.txt: no page, blocked_by_robots notice', async () => {
    const s = await make((res) =>
      sendHtml(res, 'User-agent: *\nDisallow: /\n', { contentType: 'text/plain' }),
    );
    const r = await runAudit(opts(s));
    expect(r.pagesCrawled).toBe(0);
    expect(r.issues.map((i) => [i.rule, i.url])).toEqual([['blocked_by_robots', `${s.origin}/`]]);
    expect(s.hits.map((h) => h.path)).toEqual(['/robots.txt']);
  });

  it('a start page answering 404 is a finding, not an error', async () => {
    const s = await make((res) => sendHtml(res, '', { status: 404, contentType: 'text/plain' }));
    const r = await runAudit(opts(s, { startUrl: `${s.origin}/missing` }));
    expect(r.pages.map((p) => [p.status, p.issues.map((i) => i.rule)])).toEqual([
      [404, ['http_4xx']],
    ]);
  });

  it('connection refused on the start host → CrawlError UNREACHABLE', async () => {
    const tmp = net.createServer();
    await new Promise<void>((r) => tmp.listen(0, '127.0.0.1', () => r()));
    const port = (tmp.address() as net.AddressInfo).port;
    await new Promise<void>((r) => tmp.close(() => r()));
    expect(
      await codeOf(
        runAudit({
          startUrl: `http://127.0.0.1:${port}/`,
          maxPages: 5,
          maxDepth: 1,
          userAgent: UA,
          allowPrivateNetworks: true,
        }),
      ),
    ).toBe('UNREACHABLE');
  });

  it('an unresolvable start host → UNREACHABLE; a non-http URL → INVALID_URL', async () => {
    expect(
      await codeOf(
        runAudit({
          startUrl: 'http://no-such-host.invalid/',
          maxPages: 5,
          maxDepth: 1,
          userAgent: UA,
          allowPrivateNetworks: false,
        }),
      ),
    ).toBe('UNREACHABLE');
    expect(
      await codeOf(
        runAudit({
          startUrl: 'ftp://example.com/',
          maxPages: 5,
          maxDepth: 1,
          userAgent: UA,
          allowPrivateNetworks: false,
        }),
      ),
    ).toBe('INVALID_URL');
    expect(
      await codeOf(
        runAudit({
          startUrl: '/relative',
          maxPages: 5,
          maxDepth: 1,
          userAgent: UA,
          allowPrivateNetworks: false,
        }),
      ),
    ).toBe('INVALID_URL');
  });

  it('a start page that never answers → TIMEOUT', async () => {
    const s = await serve({
      '/robots.txt': (_q, res) => sendHtml(res, '', { status: 404 }),
      '/': () => undefined,
    });
    servers.push(s);
    expect(await codeOf(runAudit(opts(s, { requestTimeoutMs: 300 })))).toBe('TIMEOUT');
  });
});
