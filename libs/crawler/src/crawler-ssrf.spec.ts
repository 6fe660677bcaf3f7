import {
  type FixtureServer,
  page,
  redirect,
  sendHtml,
  serve,
} from '../../../test/fixtures/site/fixture-server';
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

/**
 * The fixture runs on 127.0.0.1 and a "private target" on 127.0.0.2 that must never be reached.
 * Tests that need the fixture reachable with the guard ON use the test hook
 * extraAllowedAddress = exactly 127.0.0.1, so 127.0.0.2, 10/8, 169.254/16, ... stay refused.
 */
describe('SSRF guard inside the crawler (allowPrivateNetworks: false)', () => {
  let site: FixtureServer;
  let target: FixtureServer;
  const onlyFixture = (ip: string) => ip === '127.0.0.1';
  const base = (startUrl: string, extra: Partial<AuditOptions> = {}): AuditOptions => ({
    startUrl,
    maxPages: 10,
    maxDepth: 2,
    userAgent: UA,
    allowPrivateNetworks: false,
    politenessDelayMs: 0,
    requestTimeoutMs: 2000,
    ...extra,
  });

  beforeAll(async () => {
    target = await serve(
      {
        '/': (_q, res) => sendHtml(res, '<title>internal</title>'),
        '/robots.txt': (_q, res) =>
          sendHtml(res, 'User-agent: *\nAllow: /', { contentType: 'text/plain' }),
      },
      { host: '127.0.0.2' },
    );
    site = await serve({
      '/': (_q, res, s) =>
        sendHtml(res, page(`${s.origin}/`, { body: '<a href="/hop-private">x</a>' })),
      '/to-private': (_q, res) => redirect(`${target.origin}/`, 302)(_q, res, site),
      '/to-ten': redirect('http://10.0.0.1/', 302),
      '/to-metadata': redirect('http://169.254.169.254/latest/meta-data/', 302),
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

  it.each([
    ['the IPv4 loopback literal', () => `${site.origin}/`],
    ['a name resolving to loopback (localhost)', () => `http://localhost:${site.port}/`],
    ['the decimal spelling 2130706433', () => `http://2130706433:${site.port}/`],
    ['the octal spelling 0177.0.0.1', () => `http://0177.0.0.1:${site.port}/`],
    ['the hex spelling 0x7f.0.0.1', () => `http://0x7f.0.0.1:${site.port}/`],
    ['IPv4-mapped IPv6 ::ffff:127.0.0.1', () => `http://[::ffff:127.0.0.1]:${site.port}/`],
    ['IPv6 loopback ::1', () => `http://[::1]:${site.port}/`],
    ['link-local metadata 169.254.169.254', () => 'http://169.254.169.254/latest/meta-data/'],
    ['a ULA address', () => 'http://[fd00::1]/'],
    ['a private 10/8 address', () => 'http://10.1.2.3/'],
  ])('refuses a start URL on %s before any request', async (_name, url) => {
    expect(await codeOf(runAudit(base(url())))).toBe('PRIVATE_ADDRESS');
    expect(site.hits).toHaveLength(0);
  });

  it('the test hook lets exactly the fixture address through', async () => {
    const r = await runAudit(
      base(`${site.origin}/`, { extraAllowedAddress: onlyFixture, maxPages: 1 }),
    );
    expect(r.pagesCrawled).toBe(1);
    expect(r.pages[0].status).toBe(200);
  });

  it.each([
    ['127.0.0.2 (another loopback host)', '/to-private'],
    ['10.0.0.1', '/to-ten'],
    ['169.254.169.254 (cloud metadata)', '/to-metadata'],
  ])('refuses a redirect of the start page to %s', async (_name, path) => {
    expect(
      await codeOf(runAudit(base(`${site.origin}${path}`, { extraAllowedAddress: onlyFixture }))),
    ).toBe('PRIVATE_ADDRESS');
    expect(site.hits.map((h) => h.path)).toEqual(['/robots.txt', path]);
    expect(target.hits).toHaveLength(0);
  });

  it('the same redirect is followed when private networks are allowed (proves the test can see the hop)', async () => {
    const r = await runAudit(
      base(`${site.origin}/to-private`, { allowPrivateNetworks: true, maxPages: 1 }),
    );
    expect(target.hits.map((h) => h.path).slice(0, 2)).toEqual(['/robots.txt', '/']);
    expect(r.pages[0].finalUrl).toBe(`${target.origin}/`);
  });

  it('refuses a robots.txt redirect to a private address and treats robots.txt as unreachable (disallow all)', async () => {
    const robotsSite = await serve({
      '/robots.txt': redirect(`${target.origin}/robots.txt`, 301),
      '/': (_q, res, s) => sendHtml(res, page(`${s.origin}/`)),
    });
    try {
      const r = await runAudit(base(`${robotsSite.origin}/`, { extraAllowedAddress: onlyFixture }));
      expect(target.hits).toHaveLength(0);
      expect(r.pagesCrawled).toBe(0);
      expect(r.issues).toEqual([
        {
          rule: 'robots_txt_unreachable',
          severity: 'critical',
          url: `${robotsSite.origin}/robots.txt`,
          detail: expect.stringMatching(/^PRIVATE_ADDRESS: /),
        },
      ]);
      expect(robotsSite.hits.map((h) => h.path)).toEqual(['/robots.txt']);
    } finally {
      await robotsSite.close();
    }
  });
});
