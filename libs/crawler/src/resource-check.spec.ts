import {
  type FixtureServer,
  page,
  sendHtml,
  serve,
} from '../../../test/fixtures/site/fixture-server';
import { runAudit } from './crawler';
import { CrawlError } from './crawl-error';
import { extractPage, srcsetUrls } from './html-extract';
import type { FetchResult } from './http-fetcher';
import { checkResource } from './resource-check';
import type { AuditOptions } from './types';

const UA = 'SeoApiAuditBot/1.0';

const answer = (status: number, location: string | null = null): FetchResult =>
  ({ url: '', status, headers: {}, location, contentType: null }) as unknown as FetchResult;

describe('broken_resource rule: one resource check', () => {
  it('HEAD 200 is fine; HEAD 404 is broken with its status', async () => {
    expect(await checkResource('https://a.test/x.png', async () => answer(200))).toBeNull();
    expect(await checkResource('https://a.test/x.png', async () => answer(404))).toBe('HTTP 404');
  });

  it.each([405, 501])('falls back to GET when HEAD answers %i', async (status) => {
    const calls: string[] = [];
    const verdict = await checkResource('https://a.test/x.js', async (_u, m) => {
      calls.push(m);
      return m === 'HEAD' ? answer(status) : answer(200);
    });
    expect(calls).toEqual(['HEAD', 'GET']);
    expect(verdict).toBeNull();
  });

  it('follows redirects, reports loops and failures by code, leaves a cancelled check unknown', async () => {
    const chain = async (u: string) =>
      u.endsWith('/a') ? answer(301, '/b') : u.endsWith('/b') ? answer(200) : answer(500);
    expect(await checkResource('https://a.test/a', chain)).toBeNull();
    const loop = async (u: string) => answer(302, u.endsWith('/a') ? '/b' : '/a');
    expect(await checkResource('https://a.test/a', loop)).toBe('redirect loop');
    const refused = async () => {
      throw new CrawlError('PRIVATE_ADDRESS', '10.0.0.1 is not a public address');
    };
    expect(await checkResource('https://a.test/a', refused)).toBe('PRIVATE_ADDRESS');
    const cancelled = async () => {
      throw new CrawlError('CANCELLED', 'cancelled');
    };
    expect(await checkResource('https://a.test/a', cancelled)).toBeUndefined();
  });

  it('collects img src and srcset, script src and stylesheets only (not icons, iframes or data: URLs)', () => {
    expect(srcsetUrls('a.png 1x, b.png 2x,c.png 3x')).toEqual(['a.png', 'b.png', 'c.png']);
    const x = extractPage(
      '<link rel="stylesheet" href="/s.css"><link rel="icon" href="/i.ico"><script src="/a.js"></script>' +
        '<script>inline()</script><img src="/p.png" srcset="/p2.png 2x, /p3.png 3x"><img src="data:image/png;base64,AA">' +
        '<iframe src="/frame"></iframe>',
    );
    expect(x.checkedResources).toEqual([
      { url: '/s.css', kind: 'stylesheet' },
      { url: '/a.js', kind: 'script' },
      { url: '/p.png', kind: 'image' },
      { url: '/p2.png', kind: 'image' },
      { url: '/p3.png', kind: 'image' },
    ]);
  });
});

/**
 * A local site with a broken image, script and stylesheet, a working set, an image whose server
 * answers HEAD with 405 (GET works), and an image on 127.0.0.2 (a private address that the
 * guard must keep unreachable: that server must see no request).
 */
describe('broken_resource in a crawl of a local site (SSRF guard on)', () => {
  let site: FixtureServer;
  let target: FixtureServer;
  const onlyFixture = (ip: string) => ip === '127.0.0.1';
  const options = (extra: Partial<AuditOptions> = {}): AuditOptions => ({
    startUrl: `${site.origin}/`,
    maxPages: 10,
    maxDepth: 2,
    userAgent: UA,
    allowPrivateNetworks: false,
    extraAllowedAddress: onlyFixture,
    politenessDelayMs: 0,
    requestTimeoutMs: 2000,
    ...extra,
  });
  const ok = (type: string) => (_q: unknown, res: import('node:http').ServerResponse) => {
    res.writeHead(200, { 'content-type': type });
    res.end('x');
  };

  beforeAll(async () => {
    target = await serve({ '/secret.png': ok('image/png') }, { host: '127.0.0.2' });
    site = await serve({
      '/': (_q, res, s) =>
        sendHtml(
          res,
          page(`${s.origin}/`, {
            head: '<link rel="stylesheet" href="/missing.css"><link rel="stylesheet" href="/ok.css"><script src="/missing.js"></script>',
            body:
              '<img src="/logo.png" alt="logo"><img src="/ok.png" srcset="/ok.png 1x, /ok@2x.png 2x" alt="ok">' +
              `<img src="/head-refused.png" alt="h"><img src="${target.origin}/secret.png" alt="s">` +
              '<a href="/two">two</a>',
          }),
        ),
      '/two': (_q, res, s) =>
        sendHtml(res, page(`${s.origin}/two`, { body: '<img src="/logo.png" alt="logo again">' })),
      '/ok.css': ok('text/css'),
      '/ok.png': ok('image/png'),
      '/ok@2x.png': ok('image/png'),
      '/head-refused.png': (q, res) => {
        if (q.method === 'HEAD') {
          res.writeHead(405, { allow: 'GET' });
          res.end();
        } else ok('image/png')(q, res);
      },
      '/robots.txt': (_q, res) =>
        sendHtml(res, 'User-agent: *\nAllow: /', { contentType: 'text/plain' }),
    });
  });
  afterAll(async () => {
    await site.close();
    await target.close();
  });
  beforeEach(() => {
    site.hits.length = 0;
    target.hits.length = 0;
  });

  it('reports which resource is broken on which page with its status; private addresses stay unreachable', async () => {
    const r = await runAudit(options());
    const found = r.issues
      .filter((i) => i.rule === 'broken_resource')
      .map((i) => [i.url.replace(site.origin, ''), i.severity, i.detail?.replace(site.origin, '')]);
    expect(found).toEqual([
      ['/', 'warning', 'stylesheet /missing.css (HTTP 404)'],
      ['/', 'warning', 'script /missing.js (HTTP 404)'],
      ['/', 'warning', 'image /logo.png (HTTP 404)'],
      ['/', 'warning', `image ${target.origin}/secret.png (PRIVATE_ADDRESS)`],
      ['/two', 'warning', 'image /logo.png (HTTP 404)'],
    ]);
    expect(target.hits).toEqual([]);
    // Each unique resource is requested once (HEAD), plus the GET fallback after a 405.
    const resourceHits = site.hits
      .map((h) => h.path)
      .filter((p) => /\.(png|css|js)$/.test(p))
      .sort();
    expect(resourceHits).toEqual(
      [
        '/head-refused.png',
        '/head-refused.png',
        '/logo.png',
        '/missing.css',
        '/missing.js',
        '/ok.css',
        '/ok.png',
        '/ok@2x.png',
      ].sort(),
    );
    expect(r.issueCounts.warning).toBeGreaterThanOrEqual(5);
    expect(r.ruleSummary.find((s) => s.rule === 'broken_resource')?.count).toBe(5);
  });

  it('with the guard off, the same private resource is requested (proves the test sees it)', async () => {
    const r = await runAudit(options({ allowPrivateNetworks: true }));
    expect(target.hits.map((h) => h.path)).toEqual(['/secret.png']);
    expect(r.issues.some((i) => i.detail?.includes('secret.png'))).toBe(false);
  });

  it('checks at most maxResourceChecks distinct resources per crawl (0 = off)', async () => {
    const r = await runAudit(options({ maxResourceChecks: 0 }));
    expect(r.issues.filter((i) => i.rule === 'broken_resource')).toEqual([]);
    expect(site.hits.filter((h) => /\.(png|css|js)$/.test(h.path))).toEqual([]);
    site.hits.length = 0;
    const two = await runAudit(options({ maxResourceChecks: 2 }));
    expect(site.hits.filter((h) => /\.(png|css|js)$/.test(h.path)).length).toBe(2);
    expect(two.issues.filter((i) => i.rule === 'broken_resource').map((i) => i.detail)).toEqual([
      `stylesheet ${site.origin}/missing.css (HTTP 404)`,
    ]);
  });
});
