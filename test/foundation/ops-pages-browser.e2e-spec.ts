import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { VIEWPORTS, browserTestsEnabled, openBrowser } from '../helpers/browser';
import { ADMIN_TOKEN, createTestApp, TestApp } from '../helpers/test-app';

const SHOTS = join(tmpdir(), 'jest-ops-pages');
const enabled = browserTestsEnabled('ops pages (issue 15)');

/** Every URL the page asks for, in order (data: and blob: URLs are not requests to a host). */
function recordRequests(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (req) => urls.push(req.url()));
  return urls;
}

/** The recorded URLs that went to another origin than the app's. */
const outside = (urls: string[], origin: string): string[] =>
  urls.filter((u) => !/^(data|blob):/.test(u) && new URL(u).origin !== origin);

(enabled ? describe : describe.skip)('Operator pages in headless Chromium (issue 15)', () => {
  let t: TestApp;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    t = await createTestApp({ env: { REDIS_PREFIX: `${process.env.REDIS_PREFIX}:ops-pages` } });
  });
  afterAll(() => t.close());

  it('/admin/queues: ?token= signs in (token gone from the URL), the dashboard lists the queues', async () => {
    const b = await openBrowser(VIEWPORTS.desktop, t.url);
    try {
      const denied = await b.page.goto(`${t.url}/admin/queues`);
      expect(denied?.status()).toBe(401);
      await b.page.goto(`${t.url}/admin/queues?token=${encodeURIComponent(ADMIN_TOKEN())}`);
      expect(b.page.url()).toBe(`${t.url}/admin/queues`);
      await b.page.getByText('site-audit').first().waitFor({ timeout: 20_000 });
      await b.page.getByText('webhooks').first().waitFor({ timeout: 20_000 });
      // The overview pane has loaded the queues' counts from the dashboard's API.
      await b.page.getByText('Loading...').first().waitFor({ state: 'hidden', timeout: 20_000 });
      const cookies = await b.context.cookies(`${t.url}/admin/queues`);
      const ops = cookies.find((c) => c.name === 'ops_session');
      expect(ops).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/admin' });
      expect(ops!.value).not.toContain(ADMIN_TOKEN());
      await b.page.screenshot({ path: join(SHOTS, 'admin-queues.png'), fullPage: true });
    } finally {
      await b.close();
    }
  }, 60_000);

  it('/admin/queues loads nothing from outside the app: no web-font host, system fonts (issue 25)', async () => {
    const b = await openBrowser(VIEWPORTS.desktop, t.url);
    try {
      const requests = recordRequests(b.page);
      await b.page.goto(`${t.url}/admin/queues?token=${encodeURIComponent(ADMIN_TOKEN())}`);
      await b.page.getByText('site-audit').first().waitFor({ timeout: 20_000 });
      await b.page.getByText('Loading...').first().waitFor({ state: 'hidden', timeout: 20_000 });
      // A queue's own page too (the dashboard's other entry route, and its lazy chunks).
      await b.page.goto(`${t.url}/admin/queues/queue/site-audit`);
      await b.page.getByText('site-audit').first().waitFor({ timeout: 20_000 });
      await b.page.waitForLoadState('networkidle');
      expect(requests.length).toBeGreaterThan(3);
      expect(outside(requests, t.url)).toEqual([]);
      // The page as served links only its own files.
      const served = await b.page.request.get(`${t.url}/admin/queues`);
      expect(await served.text()).not.toMatch(/<link[^>]*href=["']?(https?:)?\/\//i);
      const font = await b.page.evaluate<string>('getComputedStyle(document.body).fontFamily');
      expect(font).toMatch(/^system-ui/);
    } finally {
      await b.close();
    }
  }, 60_000);

  it('/admin/queues and /admin/docs: their CSP blocks nothing they use, and no page can frame them (issue 35)', async () => {
    const b = await openBrowser(VIEWPORTS.desktop, t.url);
    try {
      const refused: string[] = [];
      b.page.on('console', (m) => {
        if (/content security policy|refused to/i.test(m.text())) refused.push(m.text());
      });
      b.page.on('pageerror', (e) => refused.push(e.message));
      await b.page.goto(`${t.url}/admin/queues?token=${encodeURIComponent(ADMIN_TOKEN())}`);
      await b.page.getByText('site-audit').first().waitFor({ timeout: 20_000 });
      await b.page.getByText('Loading...').first().waitFor({ state: 'hidden', timeout: 20_000 });
      await b.page.goto(`${t.url}/admin/queues/queue/site-audit`);
      await b.page.waitForLoadState('networkidle');
      // Signed in by the cookie (Path=/admin), the admin reference renders and opens an operation.
      await b.page.goto(`${t.url}/admin/docs/`);
      await b.page.locator('.opblock').first().waitFor({ timeout: 20_000 });
      await b.page.locator('.opblock-summary').first().click();
      await b.page.locator('.opblock-body').first().waitFor({ timeout: 10_000 });
      expect(refused).toEqual([]);

      // A page of the same origin (the cookie would be sent) frames both: the browser refuses.
      const framer = `${t.url}/__framer-${Date.now()}`;
      await b.page.route(framer, (route) =>
        route.fulfill({
          status: 200,
          contentType: 'text/html',
          body: '<!doctype html><iframe src="/admin/queues"></iframe><iframe src="/admin/docs/"></iframe>',
        }),
      );
      await b.page.goto(framer);
      await b.page.waitForTimeout(1_500);
      const framed = b.page.frames().filter((f) => f !== b.page.mainFrame());
      expect(framed).toHaveLength(2);
      for (const frame of framed) {
        const text = await frame
          .evaluate<string>('document.body ? document.body.innerText : ""')
          .catch(() => '');
        expect(text).not.toContain('site-audit');
        expect(text).not.toContain('Admin API');
      }
      expect(refused.some((m) => /frame-ancestors|refused to (display|frame)/i.test(m))).toBe(true);
    } finally {
      await b.close();
    }
  }, 90_000);

  it('/docs on a phone (390 px): viewport meta, favicon and title, no sideways scroll, nothing from outside (issue 25)', async () => {
    const b = await openBrowser(VIEWPORTS.phone, t.url, { isMobile: true });
    try {
      const requests = recordRequests(b.page);
      await b.page.goto(`${t.url}/docs`);
      await b.page.locator('.op').first().waitFor({ timeout: 20_000 });
      const viewport = await b.page.getAttribute('meta[name="viewport"]', 'content');
      expect(viewport).toBe('width=device-width, initial-scale=1');
      expect(await b.page.evaluate<number>('window.innerWidth')).toBe(VIEWPORTS.phone.width);
      expect(await b.page.title()).toBe('API reference · SEO data API');
      const icons = await b.page
        .locator('link[rel="icon"]')
        .evaluateAll((links) => links.map((l) => l.getAttribute('href')));
      expect(icons).toHaveLength(1);
      expect(icons[0]).toMatch(/^\/assets\/favicon\.[0-9a-f]{12}\.svg$/);
      const icon = await b.page.request.get(`${t.url}${icons[0]}`);
      expect(icon.status()).toBe(200);
      expect(icon.headers()['content-type']).toBe('image/svg+xml');

      const scrollWidth = () => b.page.evaluate<number>('document.scrollingElement.scrollWidth');
      expect(await scrollWidth()).toBeLessThanOrEqual(VIEWPORTS.phone.width + 2);
      // Every answer of an operation opened (examples, members) still fits.
      for (const d of await b.page.locator('#getBacklinks details').all())
        await d.evaluate((el) => el.setAttribute('open', ''));
      expect(await scrollWidth()).toBeLessThanOrEqual(VIEWPORTS.phone.width + 2);
      await b.page.screenshot({ path: join(SHOTS, 'docs-phone.png'), fullPage: true });

      // The reference's own files come from this app (/docs/assets), nothing from elsewhere.
      expect(requests.some((u) => /\/docs\/assets\/reference\.[0-9a-f]{12}\.js$/.test(u))).toBe(
        true,
      );
      expect(outside(requests, t.url)).toEqual([]);

      // The admin reference is the same page, with its own title.
      const admin = await b.page.request.get(`${t.url}/admin/docs`, {
        headers: { Authorization: `Bearer ${ADMIN_TOKEN()}` },
      });
      const adminHtml = await admin.text();
      expect(adminHtml).toContain(
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
      );
      expect(adminHtml).toContain('<title>Admin API reference · SEO data API</title>');
    } finally {
      await b.close();
    }
  }, 60_000);

  it('/docs: the reference shows the public routes only', async () => {
    const b = await openBrowser(VIEWPORTS.desktop, t.url);
    try {
      await b.page.goto(`${t.url}/docs`);
      await b.page.locator('.op').first().waitFor({ timeout: 20_000 });
      const paths = await b.page.locator('.op h2 .path').allInnerTexts();
      const clean = paths.map((p) => p.replace(/\u200b/g, '').trim());
      expect(clean[0]).toBe('/api/v1/usage');
      expect(clean).toContain('/api/v1/backlinks');
      expect(clean).toContain('/api/v1/jobs/{job_id}');
      for (const p of clean) expect(p).toMatch(/^\/api\/v1\//);
      const text = await b.page.locator('body').innerText();
      expect(text).not.toMatch(/\/admin\/v1|\/account\/v1|\/oauth|\/mcp/);
      await b.page.screenshot({ path: join(SHOTS, 'docs.png'), fullPage: true });
    } finally {
      await b.close();
    }
  }, 60_000);
});
