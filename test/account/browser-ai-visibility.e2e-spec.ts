import { randomBytes } from 'node:crypto';
import { AdminClient } from '../helpers/fixtures';
import { browserTestsEnabled, openBrowser, VIEWPORTS } from '../helpers/browser';
import { createTestApp, TestApp } from '../helpers/test-app';
import { YourDataAdmin, scanBody } from '../your-data/your-data-fixtures';

const SCREENSHOT_DIR = process.env.ACCOUNT_SCREENSHOT_DIR ?? '/tmp';
const suite = 'Console AI visibility in headless Chromium';
const describeBrowser = browserTestsEnabled(suite) ? describe : describe.skip;

/** A brand and an answer that would run script if they were written as HTML. */
const HOSTILE_BRAND = '<img src=x onerror=alert(1)> Shoes';
const HOSTILE_ANSWER =
  'Try Acme first. <script>alert(2)</script><img src=x onerror=alert(3)> Rival is cheaper; ' +
  'acme.com ships fast, unlike Acmed or Rivalry.';
const SCRIPT_URL = 'javascript:alert(4)';

/**
 * The console's "AI visibility" section in a real browser (issue 40): create a project
 * (brand, aliases, domain, market, engine, frequency, prompts one per line, competitors
 * "name, domain"), the plan limit's 402, edit it, its scores over time as the server's chart,
 * the latest answer to each prompt with the brand and competitors highlighted and the cited
 * sources linked (http and https only: a javascript: URL stays text), delete it. Hostile text
 * renders as text; the page's CSP holds (no page errors, no console errors).
 */
describeBrowser(suite, () => {
  let t: TestApp;
  let admin: AdminClient;
  let yd: YourDataAdmin;

  beforeAll(async () => {
    t = await createTestApp({ env: { REDIS_PREFIX: `${process.env.REDIS_PREFIX}:browser-ai` } });
    admin = new AdminClient(t.url);
    yd = new YourDataAdmin(admin);
  });
  afterAll(() => t.close());

  async function person() {
    const account = await admin.account('pro');
    const email = `ai-${randomBytes(4).toString('hex')}@example.com`;
    const password = `pw-${randomBytes(12).toString('hex')}`;
    const res = await admin.post(`/accounts/${account.id}/users`, { email, password });
    expect(res.status).toBe(201);
    return { account, email, password };
  }

  it.each(Object.keys(VIEWPORTS) as Array<keyof typeof VIEWPORTS>)(
    '%s: create, the limit, edit, scores chart, highlighted answers with safe links, delete',
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
        // The one refusal the journey asks for: a second project past the plan's one.
        const expected = res.status() === 402 && pathname === '/account/v1/ai-visibility/projects';
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
        page.screenshot({ path: `${SCREENSHOT_DIR}/ai-${size}-${name}.png`, fullPage: true });
      const noSideways = async () => {
        const widths = await page.evaluate<{ scroll: number; inner: number }>(
          '({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth })',
        );
        expect(widths.scroll).toBeLessThanOrEqual(widths.inner);
      };
      const projectRow = page.locator('#ai-projects-body tr').first();
      const fillProject = async (brand: string, domain: string) => {
        await page.fill('#ai-brand', brand);
        await page.fill('#ai-domain', domain);
        await page.fill('#ai-aliases', 'Acme\n');
        await page.selectOption('#ai-country', 'GB');
        await page.selectOption('#ai-engine', 'perplexity');
        await page.selectOption('#ai-frequency', 'daily');
        await page.fill('#ai-prompts', 'best running shoes\n\n  which shoes last longest  \n');
        await page.fill('#ai-competitors', 'Rival, https://www.rival.com/\nOther Co, other.com');
      };

      try {
        await page.goto(`${t.url}/account/sign-in`);
        await page.getByLabel('Email').fill(who.email);
        await page.getByLabel('Password').fill(who.password);
        await Promise.all([
          page.waitForURL(`${t.url}/account`),
          page.getByRole('button', { name: 'Sign in' }).click(),
        ]);
        await page
          .locator('#ai-projects-empty', { hasText: /^No projects yet: create one above\.$/ })
          .waitFor();

        // Create: the domain normalised, the brand as text, the results shown.
        await fillProject(HOSTILE_BRAND, 'https://www.Acme.com/shop');
        await page.getByRole('button', { name: 'Create AI-visibility project' }).click();
        await page
          .locator('#ai-status', { hasText: /created: its first scan runs within minutes\.$/ })
          .waitFor();
        expect(await projectRow.locator('.ai-brand').textContent()).toBe(HOSTILE_BRAND);
        expect(await projectRow.textContent()).toContain('acme.com · GB');
        expect(await projectRow.textContent()).toContain('Perplexity, daily');
        expect(await projectRow.locator('td.ai-score').textContent()).toBe('not scanned yet');
        expect(await page.isVisible('#ai-project')).toBe(true);
        expect(await page.locator('#ai-answers > li').count()).toBe(2);
        expect(await page.locator('#ai-answers > li').first().textContent()).toContain(
          'Not asked yet',
        );
        const [stored] = await t.db.query<
          Array<{ id: number; prompts: string[]; competitors: unknown }>
        >(`SELECT id, prompts, competitors FROM ai_visibility_projects WHERE account_id = $1`, [
          who.account.id,
        ]);
        expect(stored.prompts).toEqual(['best running shoes', 'which shoes last longest']);
        expect(stored.competitors).toEqual([
          { name: 'Rival', domain: 'rival.com' },
          { name: 'Other Co', domain: 'other.com' },
        ]);

        // A second project on the pro plan: 402, said in words, nothing created.
        await fillProject('Second', 'second.com');
        await page.getByRole('button', { name: 'Create AI-visibility project' }).click();
        await page
          .locator('#ai-status.error', { hasText: /has 1 of its 1 AI-visibility projects/ })
          .waitFor();
        expect(await page.locator('#ai-projects-body tr').count()).toBe(1);

        // Edit: the form carries the settings; a change is saved.
        await page.fill('#ai-brand', '');
        await projectRow.getByRole('button', { name: /^Edit/ }).click();
        await page.locator('#ai-form-heading', { hasText: /^Edit / }).waitFor();
        expect(await page.inputValue('#ai-brand')).toBe(HOSTILE_BRAND);
        expect(await page.inputValue('#ai-domain')).toBe('acme.com');
        expect(await page.inputValue('#ai-prompts')).toBe(
          'best running shoes\nwhich shoes last longest',
        );
        expect(await page.inputValue('#ai-competitors')).toBe(
          'Rival, rival.com\nOther Co, other.com',
        );
        await page.selectOption('#ai-frequency', 'weekly');
        await page.getByRole('button', { name: 'Save changes' }).click();
        await page.locator('#ai-status', { hasText: /saved\.$/ }).waitFor();
        expect(await projectRow.textContent()).toContain('Perplexity, weekly');

        // Two scans and answers as the scans store them: the chart, the table, the answers.
        await yd.scan(stored.id, scanBody('2026-11-01', { visibility_score: 40 }));
        await yd.scan(stored.id, scanBody('2026-11-02', { visibility_score: 80 }));
        await t.db.query(
          `INSERT INTO ai_visibility_answers (account_id, project_id, scan_date, engine, prompt, status,
             answer, cited_urls)
           VALUES ($1, $2, '2026-11-02', 'perplexity', 'best running shoes', 'answered', $3, $4),
                  ($1, $2, '2026-11-02', 'perplexity', 'which shoes last longest', 'failed', NULL, '{}')`,
          [
            who.account.id,
            stored.id,
            HOSTILE_ANSWER,
            ['https://acme.com/reviews?a=1&b=<2>', SCRIPT_URL, 'http://rival.com/'],
          ],
        );
        await projectRow.getByRole('button', { name: /^Results/ }).click();
        await page.locator('#ai-chart g.bar').nth(1).waitFor();
        expect(await page.locator('#ai-chart g.bar').count()).toBe(2);
        expect(await page.locator('#ai-chart rect.seg-visibility').count()).toBe(2);
        expect(await page.locator('#ai-chart-title').textContent()).toMatch(
          /from 2026-11-01 to 2026-11-02, latest 80\.0 of 100\.$/,
        );
        expect(await page.locator('#ai-chart text.tick').allTextContents()).toEqual([
          '0',
          '50',
          '100',
        ]);
        expect(await page.locator('#ai-scores-body tr').first().textContent()).toContain(
          '2026-11-02',
        );

        const answer = page.locator('#ai-answers > li').first();
        await answer.locator('.ai-answer-text').waitFor();
        expect(await answer.locator('.ai-answer-text').textContent()).toBe(HOSTILE_ANSWER);
        expect(await answer.locator('mark.hl-brand').allTextContents()).toEqual([
          'Acme',
          'acme.com',
        ]);
        expect(await answer.locator('mark.hl-competitor').allTextContents()).toEqual(['Rival']);
        expect(await page.locator('#ai-answers img, #ai-answers script').count()).toBe(0);
        expect(await page.locator('#ai-projects-body img').count()).toBe(0);
        const links = answer.locator('.ai-sources a');
        expect(await links.count()).toBe(2);
        expect(await links.nth(0).getAttribute('href')).toBe(
          'https://acme.com/reviews?a=1&b=%3C2%3E',
        );
        expect(await links.nth(0).getAttribute('rel')).toBe('noopener noreferrer nofollow');
        expect(await links.nth(1).getAttribute('href')).toBe('http://rival.com/');
        expect(await answer.locator('.ai-sources').textContent()).toContain(SCRIPT_URL);
        expect(await page.locator('a[href^="javascript:"]').count()).toBe(0);
        expect(await page.locator('#ai-answers > li').nth(1).textContent()).toMatch(
          /No answer on 2026-11-02: asked again at the next scan\./,
        );
        await noSideways();
        await shot('results');

        // Delete (confirmed): gone with its scans and answers.
        await projectRow.getByRole('button', { name: /^Delete/ }).click();
        await page.locator('#ai-status', { hasText: /deleted\.$/ }).waitFor();
        expect(confirms.pop()).toContain(HOSTILE_BRAND);
        await page.locator('#ai-projects-empty', { hasText: /^No projects yet/ }).waitFor();
        expect(await page.isHidden('#ai-project')).toBe(true);
        const left = await t.db.query<Array<{ n: number }>>(
          `SELECT count(*)::int AS n FROM ai_visibility_answers WHERE account_id = $1`,
          [who.account.id],
        );
        expect(left[0].n).toBe(0);

        expect(problems).toEqual([]);
      } finally {
        await browser.close();
      }
    },
    120_000,
  );
});
