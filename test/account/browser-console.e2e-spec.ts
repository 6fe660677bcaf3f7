import { randomBytes } from 'node:crypto';
import { AdminClient } from '../helpers/fixtures';
import { browserTestsEnabled, openBrowser, VIEWPORTS } from '../helpers/browser';
import { createTestApp, TestApp } from '../helpers/test-app';

const SCREENSHOT_DIR = process.env.ACCOUNT_SCREENSHOT_DIR ?? '/tmp';
const suite = 'Account console in headless Chromium';
const describeBrowser = browserTestsEnabled(suite) ? describe : describe.skip;

/**
 * The whole customer journey in a real browser, at desktop and phone sizes: sign in, create
 * a key, copy it, use it on /api/v1, revoke it (then 401), sign out. Screenshots go to /tmp
 * (account-<size>-*.png).
 */
describeBrowser(suite, () => {
  let t: TestApp;
  let admin: AdminClient;

  beforeAll(async () => {
    t = await createTestApp({ env: { REDIS_PREFIX: `${process.env.REDIS_PREFIX}:browser` } });
    admin = new AdminClient(t.url);
  });
  afterAll(() => t.close());

  async function person() {
    const account = await admin.account('pro');
    const email = `browser-${randomBytes(4).toString('hex')}@example.com`;
    const password = `pw-${randomBytes(12).toString('hex')}`;
    const res = await admin.post(`/accounts/${account.id}/users`, { email, password });
    expect(res.status).toBe(201);
    return { account, email, password };
  }

  const usageWith = (key: string) =>
    fetch(`${t.url}/api/v1/usage`, { headers: { Authorization: `Bearer ${key}` } });

  it.each(Object.keys(VIEWPORTS) as Array<keyof typeof VIEWPORTS>)(
    '%s: sign in, create a key, copy it, use it, revoke it, sign out',
    async (size) => {
      const viewport = VIEWPORTS[size];
      const who = await person();
      const browser = await openBrowser(viewport, t.url, { isMobile: size === 'phone' });
      const { page } = browser;
      const problems: string[] = [];
      const alerts: string[] = [];
      page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
      page.on('console', (msg) => {
        // Failed loads are checked below by URL (the browser's own /favicon.ico is not ours).
        if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource'))
          problems.push(`console error: ${msg.text()}`);
      });
      page.on('response', (res) => {
        const { pathname } = new URL(res.url());
        if (
          res.status() >= 400 &&
          res.request().resourceType() !== 'document' &&
          pathname !== '/favicon.ico'
        )
          problems.push(`${res.status()} for ${res.request().method()} ${pathname}`);
      });
      page.on('dialog', (dialog) => {
        if (dialog.type() === 'confirm') {
          void dialog.accept();
        } else {
          alerts.push(`${dialog.type()}: ${dialog.message()}`);
          void dialog.dismiss();
        }
      });
      const shot = (name: string, fullPage = true) =>
        page.screenshot({ path: `${SCREENSHOT_DIR}/account-${size}-${name}.png`, fullPage });
      const focused = () => page.evaluate<string | undefined>('document.activeElement?.id');
      const noSideways = async () => {
        // Strings, not functions: the tests compile without the DOM library.
        const widths = await page.evaluate<{ scroll: number; inner: number }>(
          '({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth })',
        );
        expect(widths.scroll).toBeLessThanOrEqual(widths.inner);
      };

      try {
        // Signed out: the console sends the person to the sign-in form.
        await page.goto(`${t.url}/account`);
        expect(new URL(page.url()).pathname).toBe('/account/sign-in');
        await expect(page.getByLabel('Email').isVisible()).resolves.toBe(true);
        await noSideways();

        // A wrong password first: the form comes back with a clear message, email kept.
        await page.getByLabel('Email').fill(who.email);
        await page.getByLabel('Password').fill('not-the-password-123');
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.waitForSelector('#sign-in-error');
        expect(await page.textContent('#sign-in-error')).toBe('Invalid email or password.');
        expect(await page.getByLabel('Email').inputValue()).toBe(who.email);
        expect(await page.getByLabel('Password').inputValue()).toBe('');
        await shot('sign-in-error');

        // Keyboard only: the password field is focused when the email came back; type, Enter.
        expect(await focused()).toBe('password');
        await page.keyboard.type(who.password);
        await Promise.all([page.waitForURL(`${t.url}/account`), page.keyboard.press('Enter')]);
        await page.waitForSelector('#keys-table');
        expect(await page.textContent('#plan')).toBe('Pro');
        expect(await page.getAttribute('#calls-bar', 'max')).toBe('20');
        // Waits through locators: the page's CSP (rightly) forbids the eval that a string
        // predicate of waitForFunction needs.
        await page.locator('#connections-empty', { hasText: /^No connected apps\.$/ }).waitFor();
        await page.locator('#deliveries-empty', { hasText: /^No deliveries yet\.$/ }).waitFor();
        await noSideways();
        await shot('console');

        // Webhooks: the signing secret is masked until Reveal; Rotate replaces it.
        const secretNow = async () =>
          (await admin.get(`/accounts/${who.account.id}/webhook-secret`)).body.data.secret;
        await page.locator('#webhook-secret-meta', { hasText: /^Created / }).waitFor();
        expect(await page.getAttribute('#webhook-secret', 'type')).toBe('password');
        await page.getByRole('button', { name: 'Reveal' }).click();
        expect(await page.getAttribute('#webhook-secret', 'type')).toBe('text');
        expect(await page.inputValue('#webhook-secret')).toBe(await secretNow());
        const before = await page.inputValue('#webhook-secret');
        await page.getByRole('button', { name: 'Rotate secret' }).click();
        await page.locator('#webhooks-status', { hasText: /^New secret created\./ }).waitFor();
        const rotated = await page.inputValue('#webhook-secret');
        expect(rotated).toMatch(/^whsec_/);
        expect(rotated).not.toBe(before);
        expect(rotated).toBe(await secretNow());
        await noSideways();

        // Create a key (keyboard: type the label, Enter); the key is shown once, focused.
        const label = `<img src=x onerror=alert(1)> ${size} script`;
        await page.getByLabel('Label for a new key').focus();
        await page.keyboard.type(label);
        await page.keyboard.press('Enter');
        await page.waitForSelector('#new-key:not([hidden])');
        const key = await page.inputValue('#new-key-value');
        expect(key).toMatch(/^seo_live_/);
        expect(await focused()).toBe('new-key-value');
        expect(await page.textContent('#new-key')).toContain('It will not be shown again');
        // The label is text, not markup, in the new row.
        const row = page.locator('#keys-body tr').first();
        expect(await row.locator('td.key-label').textContent()).toBe(label);
        expect(await page.locator('#keys-body img').count()).toBe(0);

        // Copy: Tab to the Copy button, Enter; the clipboard holds the key.
        await page.keyboard.press('Tab');
        expect(await focused()).toBe('copy-key');
        await page.keyboard.press('Enter');
        await page.locator('#copy-status', { hasText: /^Copied to the clipboard\.$/ }).waitFor();
        const copied = await page.evaluate<string>('navigator.clipboard.readText()');
        expect(copied).toBe(key);
        await noSideways();
        await shot('new-key');
        await shot('new-key-view', false); // what the person sees at that moment
        await page.locator('#keys-table').scrollIntoViewIfNeeded();
        await shot('keys-view', false);

        // The copied key works on the public API, under its label.
        const used = await usageWith(copied);
        expect(used.status).toBe(200);
        const usedBody = (await used.json()) as { meta: { key_name: string } };
        expect(usedBody.meta.key_name).toBe(label);

        // Hide the key: it is gone from the page.
        await page.getByRole('button', { name: 'I have saved it, hide the key' }).click();
        expect(await page.isHidden('#new-key')).toBe(true);
        expect(await page.inputValue('#new-key-value')).toBe('');

        // Revoke it (confirm accepted); the row says so, and the key stops working at once.
        await row.getByRole('button', { name: /^Revoke/ }).click();
        await row.locator('text=/^Revoked \\d{4}-/').waitFor();
        expect(await page.textContent('#keys-status')).toContain('revoked');
        const refused = await usageWith(copied);
        expect(refused.status).toBe(401);
        await shot('revoked');

        // After a reload the server-rendered table agrees, the key itself appears nowhere.
        await page.reload();
        const reloaded = page.locator('#keys-body tr').first();
        expect(await reloaded.locator('td.key-label').textContent()).toBe(label);
        expect(await reloaded.textContent()).toMatch(/Revoked \d{4}-/);
        expect(await page.content()).not.toContain(key);

        if (size === 'desktop') {
          // Change password: mismatched confirmation refused in the page, then done.
          const next = `new-${randomBytes(10).toString('hex')}`;
          await page.getByLabel('Current password').fill(who.password);
          await page.getByLabel('New password', { exact: true }).fill(next);
          await page.getByLabel('New password again').fill(`${next}x`);
          await page.getByRole('button', { name: 'Change password' }).click();
          expect(await page.textContent('#password-status')).toBe('The two new passwords differ.');
          await page.getByLabel('New password again').fill(next);
          await page.getByRole('button', { name: 'Change password' }).click();
          await page.locator('#password-status', { hasText: /^Password changed\./ }).waitFor();
          who.password = next;
        }

        // Sign out: back on the sign-in page, and the console is closed.
        await Promise.all([
          page.waitForURL(/\/account\/sign-in\?signed_out=1$/),
          page.getByRole('button', { name: 'Sign out' }).click(),
        ]);
        expect(await page.textContent('main')).toContain('You are signed out.');
        await shot('signed-out');
        await page.goto(`${t.url}/account`);
        expect(new URL(page.url()).pathname).toBe('/account/sign-in');

        expect(alerts).toEqual([]);
        expect(problems).toEqual([]);
      } finally {
        await browser.close();
      }
    },
    120_000,
  );
});
