import robotsParser from 'robots-parser';
import { createTestApp, TestApp } from '../helpers/test-app';

/** GET /robots.txt: crawlers kept out of the account area, admin, OAuth pages and reports. */
describe('robots.txt', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('is plain text, cacheable, and keeps crawlers out of private areas (read by a robots.txt parser)', async () => {
    const res = await t.http().get('/robots.txt');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.headers['cache-control']).toContain('max-age=');
    const base = 'https://seo.example';
    const robots = robotsParser(`${base}/robots.txt`, res.text);
    const allowed = (path: string, bot = 'Googlebot') => robots.isAllowed(base + path, bot);

    // Public pages stay crawlable.
    for (const path of ['/', '/docs', '/health/ready']) expect(allowed(path)).toBe(true);
    // The real path prefixes of apps/api/src (account area, sign-in, Search Console connect,
    // admin API and pages, OAuth pages and endpoints, site-audit reports, the API, MCP).
    const kept = [
      '/account',
      '/account/sign-in',
      '/account/api-keys',
      '/account/gsc/connect',
      '/admin/v1/accounts',
      '/admin/docs',
      '/admin/queues',
      '/oauth/authorize',
      '/oauth/authorize?client_id=x',
      '/authorize',
      '/register',
      '/token',
      '/revoke',
      '/reports/audits/aud_0123456789abcdefghijkl',
      '/reports/audits/aud_0123456789abcdefghijkl/pages.csv',
      '/api/v1/usage',
      '/mcp',
      '/metrics',
    ];
    for (const path of kept) {
      for (const bot of ['Googlebot', 'Bingbot', 'GPTBot', 'AnyOtherBot']) {
        expect({ path, bot, allowed: allowed(path, bot) }).toEqual({ path, bot, allowed: false });
      }
    }
  });

  it('the paths it names are the app’s own (each answers, none is an unknown-route 404)', async () => {
    // Each prefix reaches a route of this app: a page, a redirect, an auth error, a 405...
    // anything but the JSON "no such route" 404 (so a renamed prefix fails this test).
    const probes = [
      '/account/sign-in',
      '/admin/v1/accounts',
      '/oauth/authorize',
      '/token',
      '/reports/audits/aud_0123456789abcdefghijkl',
      '/api/v1/usage',
    ];
    const unknown = await t.http().get('/no-such-route-here');
    expect(unknown.status).toBe(404);
    const unknownMessage = unknown.body.error.message.replace('/no-such-route-here', '');
    for (const path of probes) {
      const res = await t.http().get(path);
      const unknownRoute =
        res.status === 404 && res.body?.error?.message?.replace(path, '') === unknownMessage;
      expect({ path, unknownRoute }).toEqual({ path, unknownRoute: false });
    }
  });
});
