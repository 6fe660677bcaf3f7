import { Logger } from '@nestjs/common';
import { AdminClient } from '../helpers/fixtures';
import { signIn } from '../helpers/account-session';
import { browserTestsEnabled, openBrowser, VIEWPORTS } from '../helpers/browser';
import { createTestApp, TestApp } from '../helpers/test-app';
import { FakeGoogle } from '../fixtures/fake-google';

const suite = 'Console Search Console section in headless Chromium';
const HOSTILE = 'https://x.example/"><img src=x onerror="document.title=1">';
const describeBrowser = browserTestsEnabled(suite) ? describe : describe.skip;

/**
 * The Search Console section end to end in a real browser against the local fake of Google
 * (its authorization endpoint redirects straight back with a code): Connect, the sites
 * listed, Add, the property with its sync state, Remove, Disconnect (revoked at Google); and,
 * on a server without a Google client, "Add a sandbox property". No page error, no failed
 * request, the CSP kept.
 */
describeBrowser(suite, () => {
  const google = new FakeGoogle();
  let t: TestApp;
  let bare: TestApp;

  beforeAll(async () => {
    Logger.overrideLogger(false);
    await google.start();
    t = await createTestApp({
      env: google.env({ REDIS_PREFIX: `${process.env.REDIS_PREFIX}:browser-gsc` }),
    });
    // The callback must come back to this server: its address is known once it listens.
    (t.config as { publicBaseUrl: string }).publicBaseUrl = t.url;
    google.redirectUris.add(`${t.url}/account/gsc/callback`);
    google.users
      .get('owner@example.com')!
      .sites.push({ siteUrl: HOSTILE, permissionLevel: 'siteOwner' });
    bare = await createTestApp({
      env: { REDIS_PREFIX: `${process.env.REDIS_PREFIX}:browser-gsc2` },
    });
  });
  afterAll(async () => {
    await t.close();
    await bare.close();
    await google.close();
  });

  async function consoleOf(app: TestApp) {
    const admin = new AdminClient(app.url);
    const account = await admin.account('pro');
    const me = await signIn(app.url, account.id);
    const browser = await openBrowser(VIEWPORTS.desktop, app.url);
    const [name, value] = me.cookie.split('=');
    await browser.context.addCookies([{ name, value, url: app.url }]);
    const problems: string[] = [];
    browser.page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    browser.page.on('console', (msg) => {
      if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource'))
        problems.push(`console error: ${msg.text()}`);
    });
    browser.page.on('response', (res) => {
      const path = new URL(res.url()).pathname;
      if (res.status() >= 400 && path !== '/favicon.ico') problems.push(`${res.status()} ${path}`);
    });
    browser.page.on('dialog', (d) => {
      if (d.type() !== 'confirm') problems.push(`${d.type()}: ${d.message()}`);
      void d.accept();
    });
    await browser.page.goto(`${app.url}/account`);
    return { ...browser, problems, me };
  }

  it('connect, add a site, see its sync state, remove it, disconnect', async () => {
    const { page, close, problems } = await consoleOf(t);
    try {
      await page.click('#gsc-connect');
      await page.waitForURL(/\/account\?gsc_connected=\d+#search-console$/);
      await page.waitForSelector(
        '[data-gsc-connection] [data-site="sc-domain:example.com"] button',
      );
      expect(await page.textContent('#gsc-status')).toContain('Google account connected');
      expect(await page.textContent('#gsc-connections')).toContain('owner@example.com');
      expect(await page.textContent('[data-site="https://blog.example.org/"]')).toContain(
        'not verified',
      );
      // A hostile site name from Google is text, never markup.
      expect(await page.textContent('#gsc-connections')).toContain(HOSTILE);
      expect(await page.$('#gsc-connections img')).toBeNull();

      await page.click('[data-site="sc-domain:example.com"] button[data-gsc-add]');
      await page.waitForSelector('tr[data-gsc-property]');
      const row = await page.textContent('tr[data-gsc-property]');
      expect(row).toContain('sc-domain:example.com');
      expect(row).toContain('pending');
      expect(row).toContain('not started');
      expect(await page.textContent('[data-site="sc-domain:example.com"]')).toContain('synced');

      await page.click('tr[data-gsc-property] button[data-gsc-remove]');
      await page.waitForSelector('#gsc-properties-empty:not([hidden])');

      const revokes = google.requests.filter((r) => r.path === '/revoke').length;
      await page.click('button[data-gsc-disconnect]');
      await page.waitForSelector('#gsc-connections-empty:not([hidden])');
      expect(google.requests.filter((r) => r.path === '/revoke').length).toBe(revokes + 1);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('without a Google client: says so and adds a sandbox property', async () => {
    const { page, close, problems } = await consoleOf(bare);
    try {
      expect(await page.textContent('#gsc-not-configured')).toContain('GOOGLE_CLIENT_ID');
      expect(await page.$('#gsc-connect')).toBeNull();
      await page.click('#gsc-add-sandbox');
      await page.waitForSelector('tr[data-gsc-property]');
      const row = await page.textContent('tr[data-gsc-property]');
      expect(row).toContain('sc-domain:sandbox-1.example');
      expect(row).toContain('sandbox');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
