import { randomBytes } from 'node:crypto';
import { addDays, plainDate } from '@app/core';
import { AdminClient, bearer } from '../helpers/fixtures';
import { browserTestsEnabled, openBrowser, VIEWPORTS, watchPage } from '../helpers/browser';
import { createTestApp, TestApp } from '../helpers/test-app';

const SCREENSHOT_DIR = process.env.ACCOUNT_SCREENSHOT_DIR ?? '/tmp';
const suite = 'Console usage chart and alert settings in headless Chromium';
const describeBrowser = browserTestsEnabled(suite) ? describe : describe.skip;

/**
 * The console's usage part (docs/usage-history.md, "The console"; docs/api.md, "Account area"):
 * the 30-day stacked bar chart drawn by the server as SVG with its table, the calls of each
 * key this month, the top endpoints, and the alert settings form, at desktop and phone sizes.
 * Screenshots in /tmp (usage-<size>-*.png).
 */
describeBrowser(suite, () => {
  let t: TestApp;
  let admin: AdminClient;

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        REDIS_PREFIX: `${process.env.REDIS_PREFIX}:browser-usage`,
        AUDIT_ALLOW_PRIVATE_NETWORKS: 'true',
      },
    });
    admin = new AdminClient(t.url);
  });
  afterAll(() => t.close());

  it.each(Object.keys(VIEWPORTS) as Array<keyof typeof VIEWPORTS>)(
    '%s: chart, table, per-key calls, top endpoints; alert settings saved and refused',
    async (size) => {
      const account = await admin.account('pro', { api_calls_per_month: 500 }, 'Nightly report');
      const email = `usage-${randomBytes(4).toString('hex')}@example.com`;
      const password = `pw-${randomBytes(12).toString('hex')}`;
      expect((await admin.post(`/accounts/${account.id}/users`, { email, password })).status).toBe(
        201,
      );
      // Today: 3 counted calls; earlier days: history rows as the meter writes them.
      for (let i = 0; i < 2; i++)
        await fetch(`${t.url}/api/v1/usage`, { headers: bearer(account.key) });
      await fetch(`${t.url}/api/v1/rank/keywords`, { headers: bearer(account.key) });
      const today = t.clock.now();
      let thisMonth = 3;
      for (const [ago, group, calls] of [
        [1, 'research', 12],
        [1, 'your-data', 30],
        [5, 'other', 7],
        [29, 'research', 4],
      ] as const) {
        await t.db.query(
          `INSERT INTO usage_daily (account_id, day, key_id, grant_id, endpoint, cost_group, calls)
           VALUES ($1, $2, $3, 0, 'GET /backlinks', $4, $5)`,
          [account.id, plainDate(addDays(today, -ago)), account.keyId, group, calls],
        );
        if (plainDate(addDays(today, -ago)).slice(0, 7) === plainDate(today).slice(0, 7))
          thisMonth += calls;
      }

      const browser = await openBrowser(VIEWPORTS[size], t.url, { isMobile: size === 'phone' });
      const { page } = browser;
      const problems = watchPage(page);
      const shot = (name: string) =>
        page.screenshot({ path: `${SCREENSHOT_DIR}/usage-${size}-${name}.png`, fullPage: true });
      const noSideways = async () => {
        const widths = await page.evaluate<{ scroll: number; inner: number }>(
          '({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth })',
        );
        expect(widths.scroll).toBeLessThanOrEqual(widths.inner);
      };
      try {
        await page.goto(`${t.url}/account/sign-in`);
        await page.getByLabel('Email').fill(email);
        await page.getByLabel('Password').fill(password);
        await Promise.all([
          page.waitForURL(`${t.url}/account`),
          page.getByRole('button', { name: 'Sign in' }).click(),
        ]);

        // The chart: 30 bars, stacked segments of the right kinds, a summary for screen readers.
        const chart = page.locator('#usage-chart');
        await chart.waitFor();
        expect(await chart.getAttribute('role')).toBe('img');
        expect(await page.locator('#usage-chart g.bar').count()).toBe(30);
        expect(await page.locator('#usage-chart rect.seg-research').count()).toBe(2);
        expect(await page.locator('#usage-chart rect.seg-your-data').count()).toBe(2);
        expect(await page.locator('#usage-chart rect.seg-other').count()).toBe(2);
        expect(await page.textContent('#usage-chart-title')).toContain('56 in all');
        const box = await chart.boundingBox();
        expect(box!.height).toBeGreaterThan(100);
        // Its stylesheet applied: research bars in the brand blue.
        expect(
          await page.evaluate(
            'getComputedStyle(document.querySelector("#usage-chart rect.seg-research")).fill',
          ),
        ).toBe('rgb(23, 71, 184)');

        // The same figures as a table (30 rows, newest first; runs of days without calls
        // are folded behind a summary row, docs/console.md).
        await page.getByText('The figures as a table').click();
        const rows = page.locator('#usage-days tbody tr.day');
        expect(await rows.count()).toBe(30);
        expect(await rows.first().locator('td').first().textContent()).toBe(plainDate(today));
        expect(await rows.nth(1).locator('td').last().textContent()).toBe('42');

        // Per-key calls this month and the top endpoints.
        expect(await page.textContent('#keys-body td.key-calls')).toBe(String(thisMonth));
        const endpoints = await page.locator('#top-endpoints tbody tr').allTextContents();
        expect(endpoints[0]).toContain('GET /backlinks');
        expect(endpoints.join(' ')).toContain('GET /usage');
        await noSideways();
        await shot('console');

        // Alert settings: a bad threshold is caught in the page; a bad URL by the server.
        await page.getByLabel('Webhook URL').fill('https://user:pw@example.com/hook');
        await page.getByLabel(/^Thresholds/).fill('0, 200');
        await page.getByRole('button', { name: 'Save alerts' }).click();
        await page.locator('#alerts-status.error', { hasText: 'whole percentages' }).waitFor();
        await page.getByLabel(/^Thresholds/).fill('90, 75');
        await page.getByRole('button', { name: 'Save alerts' }).click();
        await page.locator('#alerts-status.error', { hasText: 'user name or password' }).waitFor();
        await page.getByLabel('Webhook URL').fill('http://127.0.0.1:9/hooks/usage');
        await page.getByRole('button', { name: 'Save alerts' }).click();
        await page.locator('#alerts-status.ok', { hasText: 'Alerts at 75 %, 90 %' }).waitFor();
        expect(await page.getByLabel(/^Thresholds/).inputValue()).toBe('75, 90');
        const [stored] = await t.db.query(
          `SELECT webhook_url, thresholds FROM usage_alerts WHERE account_id = $1`,
          [account.id],
        );
        expect(stored).toEqual({
          webhook_url: 'http://127.0.0.1:9/hooks/usage',
          thresholds: [75, 90],
        });
        await noSideways();
        await shot('alerts');

        // Turning alerts off: an empty URL.
        await page.getByLabel('Webhook URL').fill('');
        await page.getByRole('button', { name: 'Save alerts' }).click();
        await page.locator('#alerts-status.ok', { hasText: 'Alerts are off' }).waitFor();
        // Only the refusal asked for above (the URL with a user name).
        expect(problems).toEqual(['422 for PUT /account/v1/alerts']);
      } finally {
        await browser.close();
      }
    },
  );
});
