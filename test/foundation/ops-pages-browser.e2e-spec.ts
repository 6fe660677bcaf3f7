import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VIEWPORTS, browserTestsEnabled, openBrowser } from '../helpers/browser';
import { ADMIN_TOKEN, createTestApp, TestApp } from '../helpers/test-app';

const SHOTS = join(tmpdir(), 'jest-ops-pages');
const enabled = browserTestsEnabled('ops pages (issue 15)');

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

  it('/docs: Swagger UI shows the public routes only', async () => {
    const b = await openBrowser(VIEWPORTS.desktop, t.url);
    try {
      await b.page.goto(`${t.url}/docs`);
      await b.page.locator('.opblock').first().waitFor({ timeout: 20_000 });
      const paths = await b.page.locator('.opblock-summary-path').allInnerTexts();
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
