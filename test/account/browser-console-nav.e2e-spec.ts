import { randomBytes } from 'node:crypto';
import { addDays, plainDate } from '@app/core';
import { AdminClient, bearer } from '../helpers/fixtures';
import { browserTestsEnabled, openBrowser, VIEWPORTS, watchPage } from '../helpers/browser';
import { createTestApp, TestApp } from '../helpers/test-app';
import { startReceiver, verifies } from '../helpers/webhook-receiver';

const SCREENSHOT_DIR = process.env.ACCOUNT_SCREENSHOT_DIR ?? '/tmp';
const suite = 'Console navigation, usage on a phone, webhook tests and site audits in Chromium';
const describeBrowser = browserTestsEnabled(suite) ? describe : describe.skip;

/**
 * Waits until a page expression is true (evaluated by the debugger protocol, so the page's
 * CSP, which refuses eval, does not apply as it does to waitForFunction).
 */
async function holds(page: { evaluate: (e: string) => Promise<unknown> }, expression: string) {
  const deadline = Date.now() + 10_000;
  while (!(await page.evaluate(expression))) {
    if (Date.now() > deadline) throw new Error(`Still false after 10 s: ${expression}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Hostile text where the console shows names and URLs: it must be shown, never run. */
const HOSTILE = `<img src=x onerror="window.__pwned=1">"'&`;

/**
 * docs/console.md in a real browser at 1280 and 390 pixels: the section navigation jumps to
 * each section (aria-current follows, focus visible, sticky on a phone); the usage chart opens
 * at the newest day and the table folds days without calls; "Send a test delivery" reaches a
 * local receiver with a signature that verifies, and a private target is reported as refused;
 * the site-audits list with report links and paging; hostile names shown as text. Screenshots
 * in /tmp (console-nav-<size>-*.png).
 */
describeBrowser(suite, () => {
  let t: TestApp;
  let admin: AdminClient;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        REDIS_PREFIX: `${process.env.REDIS_PREFIX}:browser-console-nav`,
        AUDIT_ALLOW_PRIVATE_NETWORKS: 'true',
      },
    });
    admin = new AdminClient(t.url);
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  async function job(
    accountId: number,
    status: 'complete' | 'failed' | 'running',
    url: string,
    ageMinutes: number,
    webhookUrl: string | null = null,
  ): Promise<{ id: string; auditId: string }> {
    const id = `job_${randomBytes(16).toString('hex').slice(0, 22)}`;
    const auditId = `aud_${id.slice(4)}`;
    await t.db.query(
      `INSERT INTO jobs (id, account_id, endpoint, status, progress, params, data, error, webhook_url,
         created_at, updated_at, completed_at, deadline_at)
       VALUES ($1, $2, 'site-audit', $3, $4, $5, $6, $7, $8,
         now() - make_interval(mins => $9), now(), CASE WHEN $3 = 'running' THEN NULL ELSE now() END,
         now() + interval '1 hour')`,
      [
        id,
        accountId,
        status,
        status === 'complete' ? 100 : 30,
        JSON.stringify({ url }),
        status === 'complete'
          ? JSON.stringify({
              audit_id: auditId,
              domain: HOSTILE,
              pages_crawled: 4,
              total_score: 91,
              geo_score: 50,
              issues: { critical: 0, warning: 0, total: 0 },
            })
          : null,
        status === 'failed' ? JSON.stringify({ code: 'UNREACHABLE', message: HOSTILE }) : null,
        webhookUrl,
        ageMinutes,
      ],
    );
    return { id, auditId };
  }

  it.each(Object.keys(VIEWPORTS) as Array<keyof typeof VIEWPORTS>)(
    '%s: navigation, usage at the newest day, folded empty days, test delivery, audits',
    async (size) => {
      const account = await admin.account('pro', undefined, 'Console key');
      await t.db.query(`UPDATE accounts SET name = $2 WHERE id = $1`, [account.id, HOSTILE]);
      const email = `nav-${randomBytes(4).toString('hex')}@example.com`;
      const password = `pw-${randomBytes(12).toString('hex')}`;
      expect((await admin.post(`/accounts/${account.id}/users`, { email, password })).status).toBe(
        201,
      );
      // Calls today (1), yesterday and 15 days ago; every other day of the 30 has none.
      await fetch(`${t.url}/api/v1/usage`, { headers: bearer(account.key) });
      const today = t.clock.now();
      for (const [ago, calls] of [
        [1, 12],
        [15, 3],
      ] as const) {
        await t.db.query(
          `INSERT INTO usage_daily (account_id, day, key_id, grant_id, endpoint, cost_group, calls)
           VALUES ($1, $2, $3, 0, 'GET /backlinks', 'research', $4)`,
          [account.id, plainDate(addDays(today, -ago)), account.keyId, calls],
        );
      }
      // Webhooks: the alert URL at a local receiver, and an audit's URL that points at the
      // cloud metadata address (refused by the address guard when tested).
      const hookUrl = receiver.endpoint([200]);
      await t.db.query(
        `INSERT INTO usage_alerts (account_id, webhook_url, thresholds, updated_at)
         VALUES ($1, $2, '{80}', now())`,
        [account.id, hookUrl],
      );
      const privateUrl = `http://169.254.169.254/latest/?q=${encodeURIComponent(HOSTILE)}`;
      // Site audits: 21 (a second page), the newest ones with hostile URLs and messages.
      for (let i = 0; i < 18; i++)
        await job(account.id, 'complete', `https://site-${i}.example/`, 100 + i);
      const failed = await job(account.id, 'failed', `https://down.example/${HOSTILE}`, 3);
      const running = await job(account.id, 'running', 'https://busy.example/', 2, privateUrl);
      const complete = await job(account.id, 'complete', `https://example.com/?${HOSTILE}`, 1);

      const browser = await openBrowser(VIEWPORTS[size], t.url, { isMobile: size === 'phone' });
      const { page } = browser;
      const problems = watchPage(page);
      const shot = (name: string) =>
        page.screenshot({ path: `${SCREENSHOT_DIR}/console-nav-${size}-${name}.png` });
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
        // The hostile account name is shown as text, never run.
        expect(await page.locator('h1').textContent()).toBe(HOSTILE);

        // --- The section navigation: a landmark with a link to every section.
        const nav = page.getByRole('navigation', { name: 'Sections of this page' });
        const names = await nav.getByRole('link').allTextContents();
        expect(names).toEqual([
          'Usage',
          'Calls by day',
          'API keys',
          'Usage alerts',
          'Rank tracking',
          'AI visibility',
          'Connected apps',
          'Search Console',
          'Webhooks',
          'Site audits',
          'Password',
        ]);
        for (const href of await nav
          .getByRole('link')
          .evaluateAll((links) => links.map((a) => a.getAttribute('href')))) {
          expect(await page.locator(`section${href}`).count()).toBe(1);
        }
        await shot('top');

        // Jumping: the section's heading lands just under the sticky navigation, and the link
        // is marked current.
        for (const [name, id] of [
          ['Webhooks', 'webhooks'],
          ['Site audits', 'site-audits'],
          ['Rank tracking', 'rank-tracking'],
        ] as const) {
          const link = nav.getByRole('link', { name, exact: true });
          await link.click();
          await page.waitForURL(`${t.url}/account#${id}`);
          await holds(
            page,
            `(() => {
            const top = document.getElementById('${id}').getBoundingClientRect().top;
            const under = document.getElementById('console-nav').getBoundingClientRect().bottom;
            return Math.abs(top - under) < 80 && top >= 0;
          })()`,
          );
          await holds(
            page,
            `document.querySelector('#console-nav a[href="#${id}"]').getAttribute('aria-current') === 'true'`,
          );
          expect(await nav.locator('a[aria-current="true"]').count()).toBe(1);
          // The navigation stays in view (sticky) after the jump.
          const navBox = await nav.boundingBox();
          expect(navBox!.y).toBeGreaterThanOrEqual(-1);
          expect(navBox!.y).toBeLessThan(5);
        }
        await shot('jumped');
        // Keyboard focus on a link is visible.
        const usageLink = nav.getByRole('link', { name: 'Usage', exact: true });
        await usageLink.focus();
        await page.keyboard.press('Tab');
        await page.keyboard.press('Shift+Tab');
        expect(
          await page.evaluate(
            '[document.activeElement.textContent, getComputedStyle(document.activeElement).outlineStyle]',
          ),
        ).toEqual(['Usage', 'solid']);
        if (size === 'phone') {
          // One row of links, not a block of them.
          const navBox = await nav.boundingBox();
          expect(navBox!.height).toBeLessThan(70);
        }

        // --- The usage chart opens at the newest day.
        const scroller = page.locator('#usage-history .chart-scroll');
        const scroll = await scroller.evaluate((el) => ({
          left: el.scrollLeft,
          client: el.clientWidth,
          width: el.scrollWidth,
        }));
        if (size === 'phone') expect(scroll.width).toBeGreaterThan(scroll.client);
        expect(scroll.left + scroll.client).toBeGreaterThanOrEqual(scroll.width - 1);
        const scrollerBox = await scroller.boundingBox();
        const newestBar = await page.locator('#usage-chart g.bar').last().boundingBox();
        expect(newestBar!.x + newestBar!.width).toBeLessThanOrEqual(
          scrollerBox!.x + scrollerBox!.width + 1,
        );
        expect(newestBar!.x).toBeGreaterThanOrEqual(scrollerBox!.x);

        // --- The table: newest first, days without calls folded.
        await page.locator('#usage-history').scrollIntoViewIfNeeded();
        await page.getByText('The figures as a table').click();
        const visibleDates = await page
          .locator('#usage-days tr.day:visible td[data-label="Date"]')
          .allTextContents();
        expect(visibleDates).toEqual([
          plainDate(today),
          plainDate(addDays(today, -1)),
          plainDate(addDays(today, -15)),
        ]);
        const summaries = page.locator('#usage-days tr.empty-run');
        expect(await summaries.allTextContents()).toEqual([
          expect.stringContaining('13 days with no calls'),
          expect.stringContaining('14 days with no calls'),
        ]);
        expect(await page.locator('#usage-days tr.day').count()).toBe(30);
        await shot('usage-table');
        const toggle = summaries.first().locator('button[data-toggle-run]');
        expect(await toggle.textContent()).toBe('Show them');
        expect(await toggle.getAttribute('aria-expanded')).toBe('false');
        await toggle.click();
        expect(await toggle.getAttribute('aria-expanded')).toBe('true');
        expect(await toggle.textContent()).toBe('Hide them');
        expect(await page.locator('#usage-days tr.day:visible').count()).toBe(16);
        await toggle.click();
        expect(await page.locator('#usage-days tr.day:visible').count()).toBe(3);
        await noSideways();

        // --- Webhooks: a test delivery to the local receiver, verified with the secret.
        await nav.getByRole('link', { name: 'Webhooks', exact: true }).click();
        const hooks = page.locator('#webhook-urls > li');
        await hooks.first().waitFor();
        expect(await hooks.count()).toBe(2);
        const receiverItem = hooks.filter({ hasText: hookUrl });
        await receiverItem.getByRole('button', { name: /^Send a test delivery/ }).click();
        const result = receiverItem.locator('.webhook-test-result.ok');
        await result.waitFor();
        expect(await result.textContent()).toMatch(
          /^Delivered: the receiver answered HTTP 200 in \d+ ms/,
        );
        const got = receiver.received(hookUrl);
        expect(got).toHaveLength(1);
        const secret = (await (await page.request.get(`${t.url}/account/v1/webhook-secret`)).json())
          .data.secret as string;
        expect(verifies(secret, got[0].headers, got[0].body)).toBe(true);
        expect(JSON.parse(got[0].body).type).toBe('webhook.test');
        expect(await result.textContent()).toContain(String(got[0].headers['webhook-id']));

        // A target at a private address: refused by the address guard, said plainly.
        const privateItem = hooks.filter({ hasText: '169.254.169.254' });
        expect(await privateItem.locator('code').textContent()).toBe(privateUrl);
        await privateItem.getByRole('button', { name: /^Send a test delivery/ }).click();
        const refused = privateItem.locator('.webhook-test-result.error');
        await refused.waitFor();
        expect(await refused.textContent()).toContain('refused: non-public address');
        await noSideways();
        await shot('webhooks');

        // --- Site audits: newest first, status and report links, hostile text as text.
        await nav.getByRole('link', { name: 'Site audits', exact: true }).click();
        const rows = page.locator('#audits-body tr');
        await rows.first().waitFor();
        expect(await rows.count()).toBe(20);
        expect(await page.locator('#audits-count').textContent()).toBe('(20 of 21 shown)');
        expect(await rows.nth(0).getAttribute('data-job-id')).toBe(complete.id);
        expect(await rows.nth(1).getAttribute('data-job-id')).toBe(running.id);
        expect(await rows.nth(2).getAttribute('data-job-id')).toBe(failed.id);
        const report = rows.nth(0).getByRole('link', { name: /^Open report/ });
        expect(await report.getAttribute('href')).toBe(
          `${t.config.publicBaseUrl}/reports/audits/${complete.auditId}`,
        );
        expect(await rows.nth(0).locator('td.audit-site').textContent()).toContain(
          `https://example.com/?${HOSTILE}`,
        );
        expect(await rows.nth(1).locator('td.audit-state').textContent()).toBe('running (30 %)');
        expect(await rows.nth(2).locator('td.audit-state').textContent()).toBe(
          `failed: ${HOSTILE}`,
        );
        expect(await rows.nth(2).getByRole('link').count()).toBe(0);
        await page.getByRole('button', { name: 'Show more audits' }).click();
        await page.locator('#audits-body tr').nth(20).waitFor();
        expect(await page.locator('#audits-count').textContent()).toBe('(21 of 21 shown)');
        expect(await page.getByRole('button', { name: 'Show more audits' }).isHidden()).toBe(true);
        // The status filter.
        await page.getByLabel('Show', { exact: true }).selectOption('failed');
        await holds(page, `document.querySelectorAll('#audits-body tr').length === 1`);
        expect(await page.locator('#audits-body tr').getAttribute('data-job-id')).toBe(failed.id);
        await noSideways();
        await shot('audits');

        // Nothing hostile ran; nothing failed.
        expect(await page.evaluate('window.__pwned')).toBeUndefined();
        expect(await page.locator('#main img').count()).toBe(0);
        expect(problems).toEqual([]);
      } finally {
        await browser.close();
      }
    },
  );
});
