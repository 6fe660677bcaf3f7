import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { OAuthGrantsService } from '@app/oauth';
import { browserTestsEnabled, openBrowser, VIEWPORTS } from '../helpers/browser';
import {
  OAuthTestApp,
  Person,
  authorizeUrl,
  createPerson,
  pkce,
  registerClient,
  startOAuthApp,
  token,
} from './oauth-helpers';

const SCREENSHOT_DIR = process.env.ACCOUNT_SCREENSHOT_DIR ?? '/tmp';
const suite = 'OAuth sign-in and consent pages in headless Chromium';
const describeBrowser = browserTestsEnabled(suite) ? describe : describe.skip;

/**
 * What a person sees when an AI assistant connects: the authorization request sends them to
 * the sign-in form, then to the consent page; "Allow access" returns to the app's loopback
 * redirect URI with a code. Desktop and phone sizes; screenshots in /tmp (oauth-<size>-*.png).
 */
describeBrowser(suite, () => {
  let app: OAuthTestApp;
  let callback: http.Server;
  let redirectUri: string;
  const received: URL[] = [];

  beforeAll(async () => {
    app = await startOAuthApp({
      env: { REDIS_PREFIX: `${process.env.REDIS_PREFIX}:oauth-browser` },
    });
    callback = http.createServer((req, res) => {
      received.push(new URL(req.url ?? '/', redirectUri));
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>App</title><p>Connected. You can close this tab.</p>');
    });
    await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
    redirectUri = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
  });
  afterAll(async () => {
    callback.closeAllConnections();
    await new Promise<void>((resolve) => callback.close(() => resolve()));
    await app.close();
  });

  it.each(Object.keys(VIEWPORTS) as Array<keyof typeof VIEWPORTS>)(
    '%s: authorize → sign in → consent → allow → back to the app with a code',
    async (size) => {
      const who: Person = await createPerson(app.base, 'pro');
      const client = (
        await registerClient(app.base, {
          client_name: 'Claude (browser test)',
          redirect_uris: [redirectUri],
        })
      ).json;
      const { challenge, verifier } = pkce();
      const browser = await openBrowser(VIEWPORTS[size], app.base, { isMobile: size === 'phone' });
      const { page } = browser;
      const problems: string[] = [];
      page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
      page.on('console', (msg) => {
        if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource'))
          problems.push(`console error: ${msg.text()}`);
      });
      page.on('response', (res) => {
        const { pathname } = new URL(res.url());
        if (res.status() >= 400 && pathname !== '/favicon.ico')
          problems.push(`${res.status()} for ${res.request().method()} ${pathname}`);
      });
      const shot = (name: string) =>
        page.screenshot({ path: `${SCREENSHOT_DIR}/oauth-${size}-${name}.png`, fullPage: true });
      const noSideways = async () => {
        const widths = await page.evaluate<{ scroll: number; inner: number }>(
          '({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth })',
        );
        expect(widths.scroll).toBeLessThanOrEqual(widths.inner);
      };
      try {
        await page.goto(
          authorizeUrl(app.base, {
            response_type: 'code',
            client_id: client.client_id as string,
            redirect_uri: redirectUri,
            code_challenge: challenge,
            code_challenge_method: 'S256',
            state: `browser-${size}`,
            resource: `${app.base}/mcp`,
          }),
        );
        expect(new URL(page.url()).pathname).toBe('/account/sign-in');
        // The sign-in step names the app asking (its registered client_name), issue 25.
        expect(await page.textContent('h1')).toBe('Sign in to connect Claude (browser test)');
        expect(await page.title()).toBe('Sign in to connect Claude (browser test) · SEO data API');
        await noSideways();
        await shot('1-sign-in');
        await page.fill('#email', who.email);
        await page.fill('#password', who.password);
        await Promise.all([
          page.waitForURL(/\/oauth\/authorize\?/),
          page.click('button[type="submit"]'),
        ]);

        // The consent page: the client, where it returns, what it may do, two buttons.
        await page.waitForSelector('h1');
        expect(await page.textContent('h1')).toContain('Claude (browser test)');
        const text = (await page.textContent('main')) ?? '';
        expect(text).toContain(new URL(redirectUri).host);
        expect(text).toContain('seo:read');
        // No scope asked: every scope offered, each with its plain-language line (issue 38).
        const scopeLines = await page.locator('ul.scopes li').allTextContents();
        expect(scopeLines).toEqual([
          expect.stringMatching(/^seo:read: Use the SEO data tools/),
          expect.stringMatching(/^seo:write: Change your rank tracking: .*delete projects/),
        ]);
        expect(await page.locator('ul.scopes li', { hasText: 'seo:write' }).isVisible()).toBe(true);
        expect(text).toContain(who.email);
        await noSideways();
        await shot('2-consent');
        // Keyboard: the approve button is reachable and labelled.
        const allow = page.locator('button[name="decision"][value="approve"]');
        const deny = page.locator('button[name="decision"][value="deny"]');
        expect(await allow.isVisible()).toBe(true);
        expect(await deny.isVisible()).toBe(true);
        await allow.focus();
        await Promise.all([page.waitForURL(/\/callback\?/), page.keyboard.press('Enter')]);

        const back = new URL(page.url());
        expect(back.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
        expect(back.searchParams.get('state')).toBe(`browser-${size}`);
        expect(back.searchParams.get('iss')).toBe(app.base);
        expect(received.some((u) => u.searchParams.get('state') === `browser-${size}`)).toBe(true);

        // The app exchanges the code; the console lists the connection; Revoke ends it.
        const tokens = await token(app.base, {
          grant_type: 'authorization_code',
          code: back.searchParams.get('code')!,
          code_verifier: verifier,
          redirect_uri: redirectUri,
          client_id: client.client_id as string,
        });
        expect(tokens.status).toBe(200);
        const grants = app.t.app.get(OAuthGrantsService);
        expect(await grants.authenticate(tokens.json.access_token as string)).not.toBeNull();
        page.on('dialog', (dialog) => void dialog.accept());
        await page.goto(`${app.base}/account`);
        const item = page.locator('[data-connection-id]');
        await item.first().waitFor();
        expect(await item.count()).toBe(1);
        expect(await item.first().textContent()).toContain('Claude (browser test)');
        await noSideways();
        await shot('3-connected-apps');
        await page.click('button[data-revoke-connection]');
        await page.waitForSelector('[data-connection-id]', { state: 'detached' });
        expect(await grants.authenticate(tokens.json.access_token as string)).toBeNull();
        expect(problems).toEqual([]);
      } finally {
        await browser.close();
      }
    },
  );
});
