import { createTestApp, TestApp } from '../helpers/test-app';

/** GET / (a landing page a person can use) and the favicon every browser asks for. */
describe('home page and favicon', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('GET / links the API reference, the account area and health, and says the service is up', async () => {
    const res = await t.http().get('/');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    for (const href of ['/docs', '/account', '/health/ready']) {
      expect(res.text).toContain(`href="${href}"`);
    }
    expect(res.text).toContain('All systems answer.');
    expect(res.text).toContain(
      '<meta name="viewport" content="width=device-width, initial-scale=1">',
    );
    expect(res.text).toMatch(/<link rel="icon" href="\/assets\/favicon\.[0-9a-f]{12}\.svg"/);
  });

  it('/favicon.ico points at the SVG favicon, served with long caching', async () => {
    const res = await t.http().get('/favicon.ico');
    expect(res.status).toBe(301);
    expect(res.headers.location).toMatch(/^\/assets\/favicon\.[0-9a-f]{12}\.svg$/);
    const icon = await t.http().get(res.headers.location);
    expect(icon.status).toBe(200);
    expect(icon.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(icon.headers['cache-control']).toContain('immutable');
  });

  it('/robots.txt keeps crawlers out of the account area, OAuth, admin, reports and the API', async () => {
    const res = await t.http().get('/robots.txt');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const rules = res.text.split('\n').filter((l) => /^(Disallow|Allow): /.test(l));
    for (const path of ['/account', '/admin', '/oauth', '/reports', '/api', '/mcp', '/token'])
      expect(rules).toContain(`Disallow: ${path}`);
    expect(res.text).toMatch(/^User-agent: \*$/m);
    // The landing page and the reference stay crawlable.
    expect(rules).toEqual(expect.arrayContaining(['Allow: /$', 'Allow: /docs']));
    // Paths the pages use exist under the disallowed prefixes (a renamed route would slip out).
    for (const path of ['/account/sign-in', '/oauth/authorize'])
      expect(rules.some((r) => r.startsWith('Disallow: ') && path.startsWith(r.slice(10)))).toBe(
        true,
      );
  });

  it('other unknown paths are still the JSON 404 of the API', async () => {
    const res = await t.http().get('/nope');
    expect(res.status).toBe(404);
    expect(res.body.success).toBe(false);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });
});
