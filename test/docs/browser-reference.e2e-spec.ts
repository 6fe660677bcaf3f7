import { AdminClient } from '../helpers/fixtures';
import { browserTestsEnabled, openBrowser, VIEWPORTS, watchPage } from '../helpers/browser';
import { createTestApp, TestApp } from '../helpers/test-app';

const SCREENSHOT_DIR = process.env.ACCOUNT_SCREENSHOT_DIR ?? '/tmp';
const suite = 'API reference (/docs) in headless Chromium';
const describeBrowser = browserTestsEnabled(suite) ? describe : describe.skip;

/**
 * Issue 41, item 1 (docs/api-reference.md): /docs shows each operation's code samples beside
 * it, a "Try it" form calls this app with the key typed on the page, and no request leaves
 * the origin. At desktop and phone sizes; screenshots in /tmp (reference-<size>.png).
 */
describeBrowser(suite, () => {
  let t: TestApp;
  let admin: AdminClient;

  beforeAll(async () => {
    t = await createTestApp({
      env: { REDIS_PREFIX: `${process.env.REDIS_PREFIX}:browser-reference` },
    });
    admin = new AdminClient(t.url);
  });
  afterAll(() => t?.close());

  it('serves the page and its assets compressed and cached', async () => {
    const page = await fetch(`${t.url}/docs`, { headers: { 'Accept-Encoding': 'br, gzip' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-encoding')).toBe('br');
    expect(page.headers.get('vary')).toMatch(/Accept-Encoding/i);
    expect(page.headers.get('cache-control')).toBe('public, max-age=300');
    const html = await page.text();
    const assets = [...html.matchAll(/(?:href|src)="(\/docs\/assets\/[^"]+)"/g)].map((m) => m[1]);
    expect(assets).toHaveLength(2);
    for (const url of assets) {
      expect(url).toMatch(/^\/docs\/assets\/reference\.[0-9a-f]{12}\.(css|js)$/);
      const gz = await fetch(`${t.url}${url}`, { headers: { 'Accept-Encoding': 'gzip' } });
      expect(gz.status).toBe(200);
      expect(gz.headers.get('content-encoding')).toBe('gzip');
      expect(gz.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(gz.headers.get('vary')).toMatch(/Accept-Encoding/i);
      const plain = await fetch(`${t.url}${url}`, { headers: { 'Accept-Encoding': 'identity' } });
      expect(plain.headers.get('content-encoding')).toBeNull();
      expect((await plain.text()).length).toBeGreaterThan(100);
    }
    // Nothing in the page or its files names another origin to load from.
    for (const body of [
      html,
      ...(await Promise.all(assets.map((u) => fetch(`${t.url}${u}`).then((r) => r.text())))),
    ])
      expect(body).not.toMatch(/(?:src|href)=["']?(?:https?:)?\/\//i);
    expect((await fetch(`${t.url}/docs/assets/reference.000000000000.js`)).status).toBe(404);
    expect((await fetch(`${t.url}/docs/openapi.json`)).status).toBe(200);
    expect((await fetch(`${t.url}/docs/openapi.yaml`)).status).toBe(200);
  });

  it.each(Object.keys(VIEWPORTS) as Array<keyof typeof VIEWPORTS>)(
    '%s: samples beside an operation, a try-call answered by the app, nothing from another origin',
    async (size) => {
      const account = await admin.account('pro');
      const phone = size === 'phone';
      const session = await openBrowser(VIEWPORTS[size], t.url, { isMobile: phone });
      const origin = new URL(t.url).origin;
      const outside: string[] = [];
      try {
        const { page } = session;
        const problems = watchPage(page);
        page.on('request', (req) => {
          if (!req.url().startsWith(origin) && !req.url().startsWith('data:'))
            outside.push(req.url());
        });
        const res = await page.goto(`${t.url}/docs`, { waitUntil: 'load' });
        expect(res?.status()).toBe(200);
        // The page does not jump while it loads (Lighthouse measured a layout shift of 0.84
        // when the operations list was sent open and closed by the script on a phone): the
        // list is sent closed and opened only beside the reference, on a wide screen.
        expect(await page.locator('.toc details').evaluate((d) => d.hasAttribute('open'))).toBe(
          !phone,
        );
        const served = await (await fetch(`${t.url}/docs`)).text();
        expect(served).toMatch(/<nav class="toc"[^>]*><details>/);
        const shift = await page.evaluate<number>(`new Promise((resolve) => {
          let sum = 0;
          new PerformanceObserver((list) => {
            for (const e of list.getEntries()) if (!e.hadRecentInput) sum += e.value;
          }).observe({ type: 'layout-shift', buffered: true });
          setTimeout(() => resolve(sum), 300);
        })`);
        expect(shift).toBeLessThan(0.1);
        const op = page.locator('#getUsage');
        await op.scrollIntoViewIfNeeded();
        // The three samples, the first shown; the tabs switch to the others.
        const tabs = op.getByRole('tab');
        expect(await tabs.allTextContents()).toEqual(['curl', 'TypeScript', 'Python']);
        const curl = op.locator('[data-lang="Shell"] pre');
        await expect(curl.isVisible()).resolves.toBe(true);
        expect(await curl.textContent()).toContain('/api/v1/usage');
        await tabs.nth(2).click();
        const python = op.locator('[data-lang="Python"] pre');
        expect(await python.isVisible()).toBe(true);
        expect(await python.textContent()).toContain('urllib.error.HTTPError');
        expect(await curl.isVisible()).toBe(false);
        // Beside (desktop) or below (phone) the operation's description.
        const docBox = (await op.locator('.op-doc').boundingBox())!;
        const sideBox = (await op.locator('.op-side').boundingBox())!;
        if (phone) expect(sideBox.y).toBeGreaterThanOrEqual(docBox.y + docBox.height - 1);
        else {
          expect(sideBox.x).toBeGreaterThan(docBox.x + docBox.width - 1);
          expect(Math.abs(sideBox.y - docBox.y)).toBeLessThan(5);
        }
        // No sideways scrolling of the page on a phone.
        const overflow = await page.evaluate<number>(
          'document.documentElement.scrollWidth - document.documentElement.clientWidth',
        );
        expect(overflow).toBeLessThanOrEqual(0);
        // Try it: without a key, the app's 401; with the key, the account's usage.
        const send = op.getByRole('button', { name: /Send GET request/ });
        await send.click();
        const result = op.locator('.result');
        await result.locator('.status-line', { hasText: '401' }).waitFor();
        expect(await result.textContent()).toContain('"success": false');
        await page.fill('#api-key', account.key);
        await send.click();
        await result.locator('.status-line', { hasText: '200' }).waitFor();
        expect(await result.textContent()).toContain('api_calls_used');
        // A query parameter from the form: backlinks of the sample's domain.
        const backlinks = page.locator('#getBacklinks');
        await backlinks.scrollIntoViewIfNeeded();
        await backlinks.getByRole('button', { name: /Send GET request/ }).click();
        await backlinks.locator('.result .status-line', { hasText: '200' }).waitFor();
        expect(await backlinks.locator('.result').textContent()).toContain('total_backlinks');
        await page.screenshot({ path: `${SCREENSHOT_DIR}/reference-${size}.png` });
        // The one failed load is the deliberate keyless try-call.
        expect(problems).toEqual(['401 for GET /api/v1/usage']);
        expect(outside).toEqual([]);
      } finally {
        await session.close();
      }
    },
  );
});
