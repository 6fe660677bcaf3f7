import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { browserTestsEnabled, openBrowser, VIEWPORTS, watchPage } from '../helpers/browser';
import { AdminClient } from '../helpers/fixtures';
import {
  OAuthTestApp,
  authorizeUrl,
  pkce,
  registerClient,
  startOAuthApp,
} from '../oauth/oauth-helpers';

const SCREENSHOT_DIR = process.env.ACCOUNT_SCREENSHOT_DIR ?? '/tmp';
const suite = 'Pages with hostile values in headless Chromium';
const describeBrowser = browserTestsEnabled(suite) ? describe : describe.skip;

/** Markup, quotes and a script URL; each would set window.pwned or open a dialog if it ran. */
const H = `"'><script>window.pwned=1</script><img src=x onerror="window.pwned=2">`;
const JS_URL = 'javascript:window.pwned=3';

/**
 * The console (account name, key label), the consent page (client name) and an audit report
 * (domain, URLs, titles, descriptions from the crawled site), each with hostile values, in a
 * real browser at desktop and phone sizes: nothing runs, the values read as typed, the
 * pages' own stylesheet and script load under the strict CSP, nothing scrolls sideways.
 * Screenshots in /tmp (hostile-<size>-<page>.png).
 */
describeBrowser(suite, () => {
  let app: OAuthTestApp;
  let admin: AdminClient;

  beforeAll(async () => {
    app = await startOAuthApp({
      env: { REDIS_PREFIX: `${process.env.REDIS_PREFIX}:hostile-pages` },
    });
    admin = new AdminClient(app.base);
  });
  afterAll(() => app.close());

  /** Opens a browser that records dialogs, page errors, console errors and failed loads. */
  async function browse(size: keyof typeof VIEWPORTS) {
    const browser = await openBrowser(VIEWPORTS[size], app.base, { isMobile: size === 'phone' });
    const problems = watchPage(browser.page);
    return { ...browser, problems };
  }

  async function expectInert(page: Page, problems: string[]): Promise<void> {
    expect(await page.evaluate('window.pwned')).toBeUndefined();
    expect(await page.locator('img').count()).toBe(0);
    // The site stylesheet applied (the header's colour comes from it).
    const headerColour = await page.evaluate(
      'getComputedStyle(document.querySelector("header.top")).backgroundColor',
    );
    expect(headerColour).toBe('rgb(22, 33, 62)');
    const widths = await page.evaluate<{ scroll: number; inner: number }>(
      '({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth })',
    );
    expect(widths.scroll).toBeLessThanOrEqual(widths.inner);
    expect(problems).toEqual([]);
  }

  async function signIn(page: Page, email: string, password: string): Promise<void> {
    await page.goto(`${app.base}/account/sign-in`);
    await page.fill('#email', email);
    await page.fill('#password', password);
    await Promise.all([page.waitForURL(`${app.base}/account`), page.click('button[type=submit]')]);
  }

  async function hostilePerson() {
    const created = await admin.post('/accounts', { name: H, plan: 'pro' });
    expect(created.status).toBe(201);
    const id = created.body.data.id as number;
    expect((await admin.post(`/accounts/${id}/api-keys`, { label: H })).status).toBe(201);
    expect((await admin.post(`/accounts/${id}/api-keys`, { label: JS_URL })).status).toBe(201);
    const email = `hostile-${randomBytes(4).toString('hex')}@example.com`;
    const password = `pw-${randomBytes(12).toString('hex')}`;
    expect((await admin.post(`/accounts/${id}/users`, { email, password })).status).toBe(201);
    // A rank project and a tracked keyword named by hostile text (the console's rank section).
    const project = await admin.post(`/accounts/${id}/rank-projects`, {
      domain: 'hostile.example',
      name: H,
    });
    expect(project.status).toBe(201);
    const keyword = await admin.post(`/rank-projects/${project.body.data.id}/keywords`, {
      keyword: H,
      country: 'US',
      language: 'en',
      device: 'desktop',
    });
    expect(keyword.status).toBe(201);
    return { id, email, password };
  }

  /** A stored audit whose every crawled value is hostile (as a crawl of a hostile site stores it). */
  async function hostileAudit(accountId: number): Promise<string> {
    const suffix = randomBytes(16)
      .toString('hex')
      .slice(0, 22)
      .replace(/[^0-9A-Za-z]/g, 'A');
    const jobId = `job_${suffix}`;
    const auditId = `aud_${suffix}`;
    const db = app.t.db;
    await db.query(
      `INSERT INTO jobs (id, account_id, endpoint, status, progress, data, created_at, updated_at, completed_at, deadline_at)
       VALUES ($1, $2, 'site-audit', 'complete', 100, '{}'::jsonb, now(), now(), now(), now())`,
      [jobId, accountId],
    );
    const rule = { rule: 'missing_h1', severity: 'critical', title: H, count: 1, urls: [JS_URL] };
    await db.query(
      `INSERT INTO audits (id, job_id, account_id, start_url, domain, max_pages, max_depth, pages_crawled,
         total_score, geo_score, issues_critical, issues_warning, issues_notice, issues_total,
         rule_summary, geo_checks, truncated, truncated_reason, started_at, finished_at, created_at)
       VALUES ($1, $2, $3, $4, $5, 10, 3, 1, 61.5, 40, 1, 0, 0, 1, $6, $7, false, null, now(), now(), now())`,
      [
        auditId,
        jobId,
        accountId,
        JS_URL,
        H,
        JSON.stringify([rule]),
        JSON.stringify([{ check: H, passed: false, weight: 10, detail: H }]),
      ],
    );
    await db.query(
      `INSERT INTO audit_pages (audit_id, position, url, final_url, status, depth, title, meta_description,
         h1_count, word_count, response_ms, bytes, canonical, noindex, issues)
       VALUES ($1, 0, $2, $3, 200, 0, $4, $4, 0, 12, 5, 300, $5, false, $6)`,
      [
        auditId,
        `https://example.com/${encodeURIComponent(H)}`,
        JS_URL,
        H,
        `data:text/html,${H}`,
        JSON.stringify([{ rule: 'missing_h1', severity: 'critical', url: JS_URL, detail: H }]),
      ],
    );
    return auditId;
  }

  it.each(Object.keys(VIEWPORTS) as Array<keyof typeof VIEWPORTS>)(
    '%s: home, console, consent and report pages keep hostile values inert',
    async (size) => {
      const who = await hostilePerson();
      const { page, problems, close } = await browse(size);
      try {
        // The home page (GET /): its links, the live status, the site stylesheet.
        await page.goto(`${app.base}/`);
        expect(await page.locator('h1').textContent()).toBe('Search-marketing data API');
        expect(await page.locator('#status').textContent()).toContain('All systems answer.');
        await expectInert(page, problems);
        await page.screenshot({
          path: `${SCREENSHOT_DIR}/hostile-${size}-home.png`,
          fullPage: true,
        });

        // The console: account name and key labels as text.
        await signIn(page, who.email, who.password);
        expect(await page.locator('h1').textContent()).toBe(H);
        const labels = await page.locator('td.key-label').allTextContents();
        expect(labels.sort()).toEqual([H, JS_URL].sort());
        // Rank tracking: the project's name and its keyword as text.
        const project = page.locator('#rank-projects-body tr').first();
        await project.waitFor();
        expect(await project.locator('.rank-project-label').textContent()).toBe(H);
        await project.getByRole('button', { name: /^Keywords/ }).click();
        await page.locator('#rank-keywords-body td.rank-keyword').waitFor();
        expect(await page.locator('#rank-keywords-body td.rank-keyword').textContent()).toBe(H);
        await expectInert(page, problems);
        await page.screenshot({
          path: `${SCREENSHOT_DIR}/hostile-${size}-console.png`,
          fullPage: true,
        });

        // The consent page: the client's self-chosen name as text.
        const client = (
          await registerClient(app.base, {
            client_name: H,
            redirect_uris: ['http://127.0.0.1:9/callback'],
          })
        ).json;
        const { challenge } = pkce();
        await page.goto(
          authorizeUrl(app.base, {
            client_id: String(client.client_id),
            redirect_uri: 'http://127.0.0.1:9/callback',
            response_type: 'code',
            code_challenge: challenge,
            code_challenge_method: 'S256',
            state: H,
          }),
        );
        expect(await page.locator('h1').textContent()).toBe(`Connect ${H}?`);
        await expectInert(page, problems);
        await page.screenshot({
          path: `${SCREENSHOT_DIR}/hostile-${size}-consent.png`,
          fullPage: true,
        });

        // The audit report: everything from the crawled site as text, script URLs not linked.
        const auditId = await hostileAudit(who.id);
        const res = await page.goto(`${app.base}/reports/audits/${auditId}`);
        expect(res?.status()).toBe(200);
        expect(await page.locator('h1').textContent()).toBe(`Site audit: ${H}`);
        expect(await page.locator('a[href^="javascript:"], a[href^="data:"]').count()).toBe(0);
        expect(await page.getByText(JS_URL).count()).toBeGreaterThan(0);
        // The report's own stylesheet applied too.
        expect(
          await page.evaluate('getComputedStyle(document.querySelector(".score")).borderRadius'),
        ).toBe('8px');
        await expectInert(page, problems);
        await page.screenshot({
          path: `${SCREENSHOT_DIR}/hostile-${size}-report.png`,
          fullPage: true,
        });
      } finally {
        await close();
      }
    },
  );
});
