import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PageAssets } from '../../apps/api/src/pages/page-assets';
import { PageViews } from '../../apps/api/src/pages/page-views';
import { auditReport } from '../../apps/api/src/site-audit/report.fixture';
import { REPORT_PAGE, reportPage } from '../../apps/api/src/site-audit/report.view';
import { browserTestsEnabled, openBrowser, VIEWPORTS } from '../helpers/browser';

/**
 * The report page in Chromium at 1280 and 390 px: GEO checks named in words (no raw ids), a
 * broken_resource finding with its detail and fix hint, and no horizontal overflow.
 */
const run = browserTestsEnabled('site-audit report browser test') ? describe : describe.skip;

run('site-audit report in Chromium', () => {
  let server: http.Server;
  let origin = '';
  const assets = new PageAssets();
  const views = new PageViews(assets);
  const longUrl = `http://127.0.0.1:8080/${'very-long-path-segment-'.repeat(8)}logo.png`;
  const html = views.render(
    REPORT_PAGE,
    reportPage(
      auditReport(
        {
          issuesWarning: 1,
          ruleSummary: [
            {
              rule: 'broken_resource',
              severity: 'warning',
              title: 'Broken image, script or stylesheet',
              count: 1,
              urls: ['http://127.0.0.1:8080/'],
            },
          ],
          geoChecks: [
            { check: 'question_headings_or_faq', passed: false, weight: 10, detail: '0 of 1' },
            { check: 'ai_crawlers_allowed', passed: true, weight: 20, detail: '10 of 10' },
            { check: 'author_and_date', passed: false, weight: 10, detail: '0 of 1' },
          ],
        },
        {
          issues: [
            {
              rule: 'broken_resource',
              severity: 'warning',
              url: 'http://127.0.0.1:8080/',
              detail: `image ${longUrl} (HTTP 404)`,
            },
          ],
        },
      ),
    ),
  );

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const asset = [...['report.css', 'site.css', 'favicon.svg']]
        .map((n) => assets.find(n)!)
        .find((a) => a.url === req.url);
      if (asset) {
        res.writeHead(200, { 'content-type': asset.type });
        res.end(asset.body);
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(html);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((r) => server.close(() => r()));
  });

  it.each([
    ['desktop', VIEWPORTS.desktop, false],
    ['phone', VIEWPORTS.phone, true],
  ] as const)(
    '%s: readable GEO names, the broken resource shown, no horizontal overflow',
    async (_n, vp, isMobile) => {
      const b = await openBrowser(vp, origin, { isMobile });
      try {
        await b.page.goto(`${origin}/reports/x`);
        const text = await b.page.locator('body').innerText();
        expect(text).not.toContain('question_headings_or_faq');
        expect(text).not.toContain('author_and_date');
        expect(text).toMatch(/Questions and FAQ/i);
        expect(text).toContain('Broken image, script or stylesheet');
        expect(text).toContain('logo.png');
        const overflow = await b.page.evaluate<number>(
          'document.documentElement.scrollWidth - document.documentElement.clientWidth',
        );
        expect(overflow).toBeLessThanOrEqual(0);
      } finally {
        await b.close();
      }
    },
    90_000,
  );
});
