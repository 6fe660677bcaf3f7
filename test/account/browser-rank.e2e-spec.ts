import { randomBytes } from 'node:crypto';
import { AdminClient } from '../helpers/fixtures';
import { browserTestsEnabled, openBrowser, VIEWPORTS } from '../helpers/browser';
import { createTestApp, TestApp } from '../helpers/test-app';

const SCREENSHOT_DIR = process.env.ACCOUNT_SCREENSHOT_DIR ?? '/tmp';
const suite = 'Console rank tracking in headless Chromium';
const describeBrowser = browserTestsEnabled(suite) ? describe : describe.skip;

/** A keyword and a project name that would run script if they were written as HTML. */
const HOSTILE_KEYWORD = '<img src=x onerror=alert(1)> boots';
const HOSTILE_NAME = '<script>alert(2)</script> Shop';

/**
 * The console's "Rank tracking" section in a real browser (issue 38): create a project, paste
 * keywords with a market and device, see added / already-tracked counts, positions with the
 * previous position and movement, pause / resume and delete a keyword, the plan limit's 402
 * in plain words, pause / resume and delete the project. Hostile names render as text; the
 * page's CSP holds (no page errors, no console errors).
 */
describeBrowser(suite, () => {
  let t: TestApp;
  let admin: AdminClient;

  beforeAll(async () => {
    t = await createTestApp({ env: { REDIS_PREFIX: `${process.env.REDIS_PREFIX}:browser-rank` } });
    admin = new AdminClient(t.url);
  });
  afterAll(() => t.close());

  async function person() {
    const account = await admin.account('pro', { tracked_keywords: 5 });
    const email = `rank-${randomBytes(4).toString('hex')}@example.com`;
    const password = `pw-${randomBytes(12).toString('hex')}`;
    const res = await admin.post(`/accounts/${account.id}/users`, { email, password });
    expect(res.status).toBe(201);
    return { account, email, password };
  }

  it.each(Object.keys(VIEWPORTS) as Array<keyof typeof VIEWPORTS>)(
    '%s: project, keywords, positions and movement, pause, the limit, delete',
    async (size) => {
      const who = await person();
      const browser = await openBrowser(VIEWPORTS[size], t.url, { isMobile: size === 'phone' });
      const { page } = browser;
      const problems: string[] = [];
      const confirms: string[] = [];
      page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
      page.on('console', (msg) => {
        if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource'))
          problems.push(`console error: ${msg.text()}`);
      });
      page.on('response', (res) => {
        const { pathname } = new URL(res.url());
        // The one refusal the journey asks for: the batch past the plan limit.
        const expected = res.status() === 402 && /\/rank\/projects\/\d+\/keywords$/.test(pathname);
        if (res.status() >= 400 && !expected && pathname !== '/favicon.ico')
          problems.push(`${res.status()} for ${res.request().method()} ${pathname}`);
      });
      page.on('dialog', (dialog) => {
        if (dialog.type() === 'confirm') {
          confirms.push(dialog.message());
          void dialog.accept();
        } else {
          problems.push(`${dialog.type()}: ${dialog.message()}`);
          void dialog.dismiss();
        }
      });
      const shot = (name: string) =>
        page.screenshot({ path: `${SCREENSHOT_DIR}/rank-${size}-${name}.png`, fullPage: true });
      const noSideways = async () => {
        const widths = await page.evaluate<{ scroll: number; inner: number }>(
          '({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth })',
        );
        expect(widths.scroll).toBeLessThanOrEqual(widths.inner);
      };
      const projectRow = page.locator('#rank-projects-body tr').first();
      const keywordRow = (text: string) =>
        page.locator('#rank-keywords-body tr', {
          has: page.locator('td.rank-keyword', { hasText: text }),
        });

      try {
        await page.goto(`${t.url}/account/sign-in`);
        await page.getByLabel('Email').fill(who.email);
        await page.getByLabel('Password').fill(who.password);
        await Promise.all([
          page.waitForURL(`${t.url}/account`),
          page.getByRole('button', { name: 'Sign in' }).click(),
        ]);
        await page
          .locator('#rank-projects-empty', { hasText: /^No projects yet: create one above\.$/ })
          .waitFor();

        // Create a project: the domain is normalised, the name is text.
        await page.getByLabel('Domain').fill('https://www.Example.com/shop');
        await page.getByLabel('Name (optional)').fill(HOSTILE_NAME);
        await page.getByRole('button', { name: 'Create project' }).click();
        await page.locator('#rank-status', { hasText: /created: add keywords to it\.$/ }).waitFor();
        expect(await projectRow.locator('.rank-project-label').textContent()).toBe(HOSTILE_NAME);
        expect(await projectRow.locator('.rank-domain').textContent()).toBe(' example.com');
        expect(await projectRow.locator('td.rank-count').textContent()).toBe('0');
        expect(await projectRow.locator('td.rank-tracking').textContent()).toBe('On');
        expect(await page.locator('#rank-project-name').textContent()).toBe(HOSTILE_NAME);
        expect(await page.isVisible('#rank-project')).toBe(true);

        // The same domain again: the same project, said so.
        await page.getByLabel('Domain').fill('example.com');
        await page.getByRole('button', { name: 'Create project' }).click();
        await page.locator('#rank-status', { hasText: /is already tracked as/ }).waitFor();
        expect(await page.locator('#rank-projects-body tr').count()).toBe(1);

        // Paste keywords, one per line (blank lines and spaces ignored), for GB on mobile.
        await page
          .getByLabel('Keywords to add, one per line')
          .fill(`running shoes\n\n  ${HOSTILE_KEYWORD}  \ntrail shoes\n`);
        await page.getByLabel('Country').selectOption('GB');
        await page.getByLabel('Device').selectOption('mobile');
        await page.getByRole('button', { name: 'Add keywords' }).click();
        await page
          .locator('#rank-keywords-status', {
            hasText:
              /^Added 3 keywords; 0 already tracked\. 3 of 5 tracked keywords of your plan in use\.$/,
          })
          .waitFor();
        expect(await page.inputValue('#rank-keywords')).toBe('');
        await expect(page.locator('#rank-keywords-body tr').count()).resolves.toBe(3);
        const hostile = keywordRow('onerror');
        expect(await hostile.locator('td.rank-keyword').textContent()).toBe(HOSTILE_KEYWORD);
        expect(await page.locator('#rank-projects-body img, #rank-keywords-body img').count()).toBe(
          0,
        );
        expect(await page.locator('#rank-projects-body script').count()).toBe(0);
        expect(await hostile.textContent()).toContain('GB · en · mobile');
        expect(await hostile.locator('td.rank-position').textContent()).toBe('not checked yet');
        expect(await hostile.locator('td.rank-status').textContent()).toBe('pending');
        await projectRow.locator('td.rank-count', { hasText: /^3$/ }).waitFor();

        // Re-sending a line: already tracked, nothing added.
        await page.getByLabel('Keywords to add, one per line').fill('Running   Shoes');
        await page.getByRole('button', { name: 'Add keywords' }).click();
        await page
          .locator('#rank-keywords-status', { hasText: /^Added 0 keywords; 1 already tracked\./ })
          .waitFor();

        // Positions: two checks of "running shoes" (6, then 4): previous 6, moved up 2.
        const ids = await t.db.query<Array<{ id: number; keyword: string }>>(
          `SELECT id, keyword FROM tracked_keywords WHERE account_id = $1 ORDER BY id`,
          [who.account.id],
        );
        const running = ids.find((k) => k.keyword === 'running shoes')!;
        const ingest = await admin.post(`/tracked-keywords/${running.id}/checks`, {
          checks: [
            { check_date: '2026-11-01', position: 6 },
            { check_date: '2026-11-02', position: 4 },
          ],
        });
        expect(ingest.status).toBeLessThan(300);
        await projectRow.getByRole('button', { name: /^Keywords/ }).click();
        const runningRow = keywordRow('running shoes');
        await runningRow.locator('td.rank-position', { hasText: /^4$/ }).waitFor();
        expect(await runningRow.locator('td.rank-previous').textContent()).toBe('6');
        expect(await runningRow.locator('td.rank-movement').textContent()).toBe('▲ 2 up');
        await noSideways();
        await shot('keywords');

        // Pause and resume a keyword.
        await runningRow.getByRole('button', { name: /^Pause/ }).click();
        await runningRow.locator('td.rank-status', { hasText: /^paused$/ }).waitFor();
        await runningRow.getByRole('button', { name: /^Resume/ }).click();
        await runningRow.locator('td.rank-status', { hasText: /^active$/ }).waitFor();

        // Past the plan limit (5; 3 in use): nothing added, the limit in plain words.
        await page.getByLabel('Keywords to add, one per line').fill('a1\na2\na3');
        await page.getByRole('button', { name: 'Add keywords' }).click();
        await page
          .locator('#rank-keywords-status.error', {
            hasText:
              /^Nothing was added: your plan allows 5 tracked keywords, 3 are in use and this batch would add 3\./,
          })
          .waitFor();
        expect(await page.locator('#rank-keywords-body tr').count()).toBe(3);
        expect(await page.inputValue('#rank-keywords')).toBe('a1\na2\na3');
        await shot('limit');

        // Delete a keyword (confirmed): gone, and the project counts 2.
        await hostile.getByRole('button', { name: /^Delete/ }).click();
        await page.locator('#rank-keywords-status', { hasText: /deleted\.$/ }).waitFor();
        await expect(page.locator('#rank-keywords-body tr').count()).resolves.toBe(2);
        expect(confirms.pop()).toContain(HOSTILE_KEYWORD);
        await projectRow.locator('td.rank-count', { hasText: /^2$/ }).waitFor();

        // Pause the project's daily checks, resume them.
        await projectRow.getByRole('button', { name: /^Pause/ }).click();
        await projectRow.locator('td.rank-tracking', { hasText: /^Paused$/ }).waitFor();
        await projectRow.getByRole('button', { name: /^Resume/ }).click();
        await projectRow.locator('td.rank-tracking', { hasText: /^On$/ }).waitFor();

        // Delete the project (confirmed): gone with its keywords.
        await projectRow.getByRole('button', { name: /^Delete/ }).click();
        await page.locator('#rank-status', { hasText: /deleted\.$/ }).waitFor();
        expect(confirms.pop()).toMatch(/with its 2 keywords and their position history/);
        await page.locator('#rank-projects-empty', { hasText: /^No projects yet/ }).waitFor();
        expect(await page.isHidden('#rank-project')).toBe(true);
        const left = await t.db.query<Array<{ n: number }>>(
          `SELECT count(*)::int AS n FROM tracked_keywords WHERE account_id = $1`,
          [who.account.id],
        );
        expect(left[0].n).toBe(0);
        await noSideways();

        expect(problems).toEqual([]);
      } finally {
        await browser.close();
      }
    },
    120_000,
  );
});
