import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
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

/** Waits (at most 10 s) until the condition holds. */
async function until(condition: () => boolean): Promise<void> {
  const end = Date.now() + 10_000;
  while (!condition() && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
}

const SCREENSHOT_DIR = process.env.ACCOUNT_SCREENSHOT_DIR ?? '/tmp';
const suite = 'OAuth refusals reach the app in headless Chromium (issue 36)';
const describeBrowser = browserTestsEnabled(suite) ? describe : describe.skip;

/**
 * Every refusal after a form post must reach the app's callback in a real browser. Chromium
 * applies the sign-in page's `form-action 'self'` to every redirect that follows the form's
 * post, so a redirect from that chain to the app is blocked and the person is left on the
 * filled form (issue 36, item 1). Refusals are therefore our page with the reason and a link
 * back (a new navigation, outside form-action); the consent form's CSP names the app's origin
 * or private-use scheme. Screenshots in /tmp (oauth-refusal-<size>-*.png).
 */
describeBrowser(suite, () => {
  let app: OAuthTestApp;
  let callback: http.Server;
  let redirectUri: string;
  const received: URL[] = [];

  beforeAll(async () => {
    app = await startOAuthApp({
      env: {
        REDIS_PREFIX: `${process.env.REDIS_PREFIX}:oauth-refusals`,
        OAUTH_REGISTRATIONS_PER_ADDRESS: '1000',
      },
    });
    callback = http.createServer((req, res) => {
      received.push(new URL(req.url ?? '/', redirectUri));
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>App</title><p>The app got the answer.</p>');
    });
    await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
    redirectUri = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
  });
  afterAll(async () => {
    callback.closeAllConnections();
    await new Promise<void>((resolve) => callback.close(() => resolve()));
    await app.close();
  });

  /** Script errors and CSP violations (Chromium logs a blocked form redirect as one). */
  function watch(page: Page): string[] {
    const problems: string[] = [];
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('console', (msg) => {
      const text = msg.text();
      if (/Content Security Policy|violates/i.test(text)) problems.push(`csp: ${text}`);
      else if (msg.type() === 'error' && !text.startsWith('Failed to load resource'))
        problems.push(`console error: ${text}`);
    });
    return problems;
  }

  async function noSideways(page: Page): Promise<void> {
    const widths = await page.evaluate<{ scroll: number; inner: number }>(
      '({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth })',
    );
    expect(widths.scroll).toBeLessThanOrEqual(widths.inner);
  }

  async function signInOnForm(page: Page, who: Person, then: RegExp): Promise<void> {
    expect(new URL(page.url()).pathname).toBe('/account/sign-in');
    await page.fill('#email', who.email);
    await page.fill('#password', who.password);
    await Promise.all([page.waitForURL(then), page.click('button[type="submit"]')]);
  }

  const params = (clientId: string, redirect: string, state: string, extra = {}) => ({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirect,
    code_challenge: pkce().challenge,
    code_challenge_method: 'S256',
    state,
    resource: `${app.base}/mcp`,
    ...extra,
  });

  it.each(Object.keys(VIEWPORTS) as Array<keyof typeof VIEWPORTS>)(
    '%s: a Starter user signs in → our page says why → the link ends at the app with access_denied and state',
    async (size) => {
      const who = await createPerson(app.base, 'starter');
      const client = (
        await registerClient(app.base, {
          client_name: 'Cursor (test)',
          redirect_uris: [redirectUri],
        })
      ).json;
      const browser = await openBrowser(VIEWPORTS[size], app.base, { isMobile: size === 'phone' });
      const { page } = browser;
      const problems = watch(page);
      const state = `starter-${size}`;
      try {
        await page.goto(
          authorizeUrl(app.base, params(client.client_id as string, redirectUri, state)),
        );
        await signInOnForm(page, who, /\/oauth\/authorize\?/);

        // Our page, not the filled form: the reason with the plan's name, a link back.
        expect(await page.textContent('h1')).toBe('This account cannot connect apps');
        const reason = (await page.textContent('#refusal-reason')) ?? '';
        expect(reason).toMatch(
          /^Your account test starter \w+ is on the Starter plan, which has no API access/,
        );
        expect(reason).toContain(
          'Free and Starter plans have no API access; upgrade to Pro or Agency',
        );
        expect(await page.textContent('main')).toContain(new URL(redirectUri).host);
        const link = page.locator('a[data-hand-back]');
        expect(await link.textContent()).toBe('Return to Cursor (test)');
        const href = new URL((await link.getAttribute('href'))!);
        expect(`${href.origin}${href.pathname}`).toBe(redirectUri);
        expect(received.some((u) => u.searchParams.get('state') === state)).toBe(false);
        await noSideways(page);
        await page.screenshot({
          path: `${SCREENSHOT_DIR}/oauth-refusal-${size}-1-plan.png`,
          fullPage: true,
        });

        // Keyboard: the link is focusable; Enter hands the refusal back to the app.
        await link.focus();
        await Promise.all([page.waitForURL(/\/callback\?/), page.keyboard.press('Enter')]);
        const back = new URL(page.url());
        expect(back.searchParams.get('error')).toBe('access_denied');
        expect(back.searchParams.get('state')).toBe(state);
        expect(back.searchParams.get('iss')).toBe(app.base);
        expect(back.searchParams.get('code')).toBeNull();
        expect(received.some((u) => u.searchParams.get('state') === state)).toBe(true);
        expect(problems).toEqual([]);
      } finally {
        await browser.close();
      }
    },
  );

  it('a Free user already signed in (no form involved) gets the same page and link', async () => {
    const who = await createPerson(app.base, 'free');
    const client = (await registerClient(app.base, { redirect_uris: [redirectUri] })).json;
    const browser = await openBrowser(VIEWPORTS.desktop, app.base);
    const { page } = browser;
    const problems = watch(page);
    try {
      await page.goto(`${app.base}/account/sign-in`);
      await signInOnForm(page, who, /\/account$/);
      const res = await page.goto(
        authorizeUrl(app.base, params(client.client_id as string, redirectUri, 'free-1')),
      );
      expect(res?.status()).toBe(403);
      expect(await page.textContent('#refusal-reason')).toContain('on the Free plan');
      await Promise.all([page.waitForURL(/\/callback\?/), page.click('a[data-hand-back]')]);
      const back = new URL(page.url());
      expect(back.searchParams.get('error')).toBe('access_denied');
      expect(back.searchParams.get('state')).toBe('free-1');
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('Deny on the consent page ends at the app with access_denied and state', async () => {
    const who = await createPerson(app.base, 'pro');
    const client = (await registerClient(app.base, { redirect_uris: [redirectUri] })).json;
    const browser = await openBrowser(VIEWPORTS.desktop, app.base);
    const { page } = browser;
    const problems = watch(page);
    try {
      await page.goto(
        authorizeUrl(app.base, params(client.client_id as string, redirectUri, 'deny-1')),
      );
      await signInOnForm(page, who, /\/oauth\/authorize\?/);
      await Promise.all([
        page.waitForURL(/\/callback\?/),
        page.click('button[name="decision"][value="deny"]'),
      ]);
      const back = new URL(page.url());
      expect(back.searchParams.get('error')).toBe('access_denied');
      expect(back.searchParams.get('state')).toBe('deny-1');
      expect(back.searchParams.get('iss')).toBe(app.base);
      expect(back.searchParams.get('code')).toBeNull();
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('an invalid request resumed by the sign-in form (resource of another server) reaches the app as invalid_target', async () => {
    const who = await createPerson(app.base, 'pro');
    const client = (await registerClient(app.base, { redirect_uris: [redirectUri] })).json;
    const full = new URL(
      authorizeUrl(
        app.base,
        params(client.client_id as string, redirectUri, 'target-1', {
          resource: 'https://other.example/mcp',
        }),
      ),
    );
    const request = `${full.pathname}${full.search}`;
    const browser = await openBrowser(VIEWPORTS.desktop, app.base);
    const { page } = browser;
    const problems = watch(page);
    try {
      await page.goto(`${app.base}/account/sign-in?return_to=${encodeURIComponent(request)}`);
      await signInOnForm(page, who, /\/oauth\/authorize\?/);
      expect(await page.textContent('h1')).toBe('The app’s request was refused');
      expect(await page.textContent('#refusal-reason')).toContain('invalid_target');
      await Promise.all([page.waitForURL(/\/callback\?/), page.click('a[data-hand-back]')]);
      const back = new URL(page.url());
      expect(back.searchParams.get('error')).toBe('invalid_target');
      expect(back.searchParams.get('state')).toBe('target-1');
      expect(back.searchParams.get('iss')).toBe(app.base);
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it.each(Object.keys(VIEWPORTS) as Array<keyof typeof VIEWPORTS>)(
    '%s: a native app (cursor://): the consent page names the scheme, Allow hands the code to cursor://, the code is exchanged; a Starter user gets the link to cursor://',
    async (size) => {
      const native = 'cursor://callback';
      const client = (
        await registerClient(app.base, { client_name: 'Cursor', redirect_uris: [native] })
      ).json;
      const clientId = client.client_id as string;
      const who = await createPerson(app.base, 'pro');
      const { challenge, verifier } = pkce();
      const browser = await openBrowser(VIEWPORTS[size], app.base, { isMobile: size === 'phone' });
      const { page } = browser;
      const problems = watch(page);
      // A custom-scheme navigation cannot be followed here: it shows as a request to it.
      const nativeRequests: string[] = [];
      page.on('request', (r) => {
        if (r.url().startsWith('cursor:')) nativeRequests.push(r.url());
      });
      try {
        await page.goto(
          authorizeUrl(app.base, {
            ...params(clientId, native, `native-${size}`),
            code_challenge: challenge,
          }),
        );
        await signInOnForm(page, who, /\/oauth\/authorize\?/);
        const text = (await page.textContent('main')) ?? '';
        expect(text).toContain('you return to cursor://callback: an app on this device');
        expect(text).toContain('opens cursor: addresses, not a website');
        await noSideways(page);
        await page.screenshot({
          path: `${SCREENSHOT_DIR}/oauth-refusal-${size}-2-native-consent.png`,
          fullPage: true,
        });
        await page.click('button[name="decision"][value="approve"]');
        await until(() => nativeRequests.length > 0);
        expect(nativeRequests).toHaveLength(1);
        const handed = new URL(nativeRequests[0]);
        expect(nativeRequests[0]).toBe(
          `${native}?code=${handed.searchParams.get('code')}&state=native-${size}&iss=${encodeURIComponent(app.base)}`,
        );
        expect(problems).toEqual([]);
        const tokens = await token(app.base, {
          grant_type: 'authorization_code',
          code: handed.searchParams.get('code')!,
          code_verifier: verifier,
          redirect_uri: native,
          client_id: clientId,
          resource: `${app.base}/mcp`,
        });
        expect(tokens.status).toBe(200);
        expect(tokens.json.access_token).toBeTruthy();
      } finally {
        await browser.close();
      }

      // A Starter user of the same app: our page, and a link to cursor:// with the refusal.
      const starter = await createPerson(app.base, 'starter');
      const second = await openBrowser(VIEWPORTS[size], app.base, { isMobile: size === 'phone' });
      const problems2 = watch(second.page);
      const handedBack: string[] = [];
      second.page.on('request', (r) => {
        if (r.url().startsWith('cursor:')) handedBack.push(r.url());
      });
      try {
        await second.page.goto(
          authorizeUrl(app.base, params(clientId, native, `native-starter-${size}`)),
        );
        await signInOnForm(second.page, starter, /\/oauth\/authorize\?/);
        const link = second.page.locator('a[data-hand-back]');
        const expected = `${native}?error=access_denied&error_description=This+account%E2%80%99s+plan+has+no+API+access%3A+connecting+apps+needs+the+Pro+or+Agency+plan.&state=native-starter-${size}&iss=${encodeURIComponent(app.base)}`;
        expect(await link.getAttribute('href')).toBe(expected);
        expect(await second.page.textContent('main')).toContain(
          'you go back to cursor://callback, an app on this device that opens cursor: addresses',
        );
        await noSideways(second.page);
        await second.page.screenshot({
          path: `${SCREENSHOT_DIR}/oauth-refusal-${size}-3-native-plan.png`,
          fullPage: true,
        });
        await link.click();
        await until(() => handedBack.length > 0);
        expect(handedBack).toEqual([expected]);
        expect(problems2).toEqual([]);
      } finally {
        await second.close();
      }
    },
  );
});
