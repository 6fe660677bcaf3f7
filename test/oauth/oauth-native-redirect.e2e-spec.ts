import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { decodeEntities } from '../helpers/html';
import {
  Browser,
  InMemoryOAuthProvider,
  OAuthTestApp,
  Person,
  authorizeInBrowser,
  authorizeUrl,
  createPerson,
  handBackLink,
  hiddenInputs,
  pkce,
  registerClient,
  signInThroughPage,
  startOAuthApp,
} from './oauth-helpers';

/**
 * Native apps' redirect URIs (issue 36, item 5; RFC 8252 §7.1): registration accepts
 * private-use schemes (reverse-domain with a period, or a known MCP client's scheme), never a
 * scheme with a meaning in browsers; the consent page names the scheme; a whole flow with the
 * SDK client ends at the app's own address with a code it exchanges. A browser cannot follow
 * a custom-scheme navigation, so the Location and the hand-back link are asserted exactly.
 */

/** An MCP client's OAuth provider whose "browser" signs in and decides over HTTP. */
class NativeAppProvider extends InMemoryOAuthProvider {
  /** The decision's Location, as the OS would hand it to the app. */
  location?: string;
  consentHtml?: string;
  consentCsp?: string | null;
  authorizationUrl?: URL;
  readonly browser = new Browser();

  constructor(
    private readonly base: string,
    private readonly person: Person,
    redirect: string,
  ) {
    super(redirect, 'Native Test App');
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    this.authorizationUrl = url;
    let res = await this.browser.fetch(url.href);
    if (res.status === 303) {
      const back = await signInThroughPage(
        this.browser,
        this.base,
        res.headers.get('location')!,
        this.person,
      );
      res = await this.browser.fetch(new URL(back, this.base).href);
    }
    if (res.status !== 200) throw new Error(`authorize: ${res.status} ${await res.text()}`);
    this.consentCsp = res.headers.get('content-security-policy');
    this.consentHtml = await res.text();
    const done = await this.browser.postForm(`${this.base}/oauth/authorize/decision`, {
      ...hiddenInputs(this.consentHtml),
      decision: 'approve',
    });
    if (done.status !== 303) throw new Error(`decision: ${done.status}`);
    this.location = done.headers.get('location')!;
  }
}

describe('native apps: private-use redirect URIs (issue 36, item 5)', () => {
  let app: OAuthTestApp;
  let base: string;
  let pro: Person;

  beforeAll(async () => {
    app = await startOAuthApp({
      env: {
        REDIS_PREFIX: `${process.env.REDIS_PREFIX}:oauth-native`,
        OAUTH_REGISTRATIONS_PER_ADDRESS: '1000',
      },
    });
    base = app.base;
    pro = await createPerson(base, 'pro');
  });
  afterAll(() => app.close());

  it.each([
    'cursor://callback',
    'cursor://anysphere.cursor-retrieval/oauth/user/callback',
    'vscode://x/cb',
    'vscode-insiders://x/cb',
    'windsurf://codeium.windsurf/cb',
    'com.example.app:/cb',
    'com.example.app://oauth/cb?x=1',
    'io.github.some-user.tool:/cb',
  ])('registration accepts %s, stored and answered as sent', async (uri) => {
    const res = await registerClient(base, { redirect_uris: [uri, 'http://127.0.0.1:9/cb'] });
    expect(res.status).toBe(201);
    expect(res.json.redirect_uris).toEqual([uri, 'http://127.0.0.1:9/cb']);
  });

  it.each([
    'javascript:alert(1)',
    'javascript://x/%0aalert(1)',
    'JavaScript:alert(1)',
    'java\tscript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'file:///etc/passwd',
    'vbscript:msgbox(1)',
    'about:blank',
    'blob:https://app.example/0f1e',
    'mailto:a@example.com',
    'intent://x#Intent;end',
    'chrome-extension://abc/cb',
    'myapp://callback',
    'web+app:/cb',
    'Cursor://callback',
    'COM.EXAMPLE.APP:/cb',
    'HTTPS://app.example/cb',
    'https://app.example/cb#frag',
    'cursor://callback#x',
    'com.example.app:/cb#',
    'cursor://evil@callback',
    'cursor://call back',
    'cursor://callback\n',
    ' cursor://callback',
    'cursor://callback\u202e',
    'cursor:',
    'http://app.example/cb',
    '',
    42,
    null,
    ['cursor://callback'],
  ])('registration refuses %j: 400 invalid_redirect_uri', async (uri) => {
    const res = await registerClient(base, { redirect_uris: ['http://127.0.0.1:9/cb', uri] });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatch(/^invalid_redirect_uri|invalid_client_metadata$/);
    expect(res.json.client_id).toBeUndefined();
  });

  it('a refusal says the rule, naming the private-use schemes accepted', async () => {
    const res = await registerClient(base, { redirect_uris: ['myapp://callback'] });
    expect(res.json).toEqual({
      error: 'invalid_redirect_uri',
      error_description: expect.stringContaining('com.example.app:/cb'),
    });
    expect(res.json.error_description).toContain('cursor, vscode');
  });

  it.each(['cursor://callback', 'com.example.app:/oauth/cb'])(
    'the SDK client with %s: register, sign in, consent names the scheme, code to the app, tokens, tools',
    async (redirect) => {
      const provider = new NativeAppProvider(base, pro, redirect);
      const mcpUrl = new URL(`${base}/mcp`);
      const first = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
      await expect(
        new Client({ name: 'native-e2e', version: '1.0.0' }).connect(first),
      ).rejects.toBeInstanceOf(UnauthorizedError);

      // The consent page names where the browser returns: the scheme and the address.
      const scheme = redirect.slice(0, redirect.indexOf(':') + 1);
      const html = decodeEntities(provider.consentHtml ?? '');
      expect(html).toContain(`<strong class="return-address">${redirect}</strong>`);
      expect(html).toContain(`opens <code>${scheme}</code> addresses, not a website`);
      // The consent form's CSP lets its post end at the app's scheme (no origin to name).
      expect(provider.consentCsp).toContain(`form-action 'self' ${scheme};`);
      expect(provider.consentCsp).not.toContain('null');
      expect(provider.consentCsp).not.toContain('unsafe-inline');

      // The decision's Location: exactly the registered URI plus code, state and iss.
      const location = provider.location!;
      expect(location.startsWith(`${redirect}?code=`)).toBe(true);
      const back = new URL(location);
      // The SDK client sends no state; it would come back unchanged (oauth-flow tests it).
      expect(provider.authorizationUrl?.searchParams.has('state')).toBe(false);
      expect(location).toBe(
        `${redirect}?code=${back.searchParams.get('code')}&iss=${encodeURIComponent(base)}`,
      );
      expect(back.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);

      // The app receives it and exchanges the code; tools work with the token.
      await first.finishAuth(back.searchParams.get('code')!);
      expect(provider.saved?.access_token).toBeTruthy();
      const connected = new Client({ name: 'native-e2e', version: '1.0.0' });
      await connected.connect(
        new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }),
      );
      const tools = await connected.listTools();
      expect(tools.tools.map((t) => t.name)).toContain('get_usage');
      await connected.close();
    },
  );

  it('the redirect_uri of a native client is matched exactly: another spelling is an error page', async () => {
    const client = (await registerClient(base, { redirect_uris: ['cursor://callback'] })).json;
    const { challenge } = pkce();
    for (const other of [
      'cursor://callback/',
      'cursor://Callback',
      'CURSOR://callback',
      'cursor://callback?x=1',
      'cursor://evil@callback',
      'cursor://callback:1234',
    ]) {
      const res = await fetch(
        authorizeUrl(base, {
          response_type: 'code',
          client_id: client.client_id as string,
          redirect_uri: other,
          code_challenge: challenge,
          code_challenge_method: 'S256',
        }),
        { redirect: 'manual' },
      );
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
    }
  });

  it('deny and a plan without API access reach a native app too: the Location, the hand-back link', async () => {
    const redirect = 'com.example.app:/cb';
    const client = (await registerClient(base, { redirect_uris: [redirect] })).json;
    const { challenge } = pkce();
    const params = (state: string) => ({
      response_type: 'code',
      client_id: client.client_id as string,
      redirect_uri: redirect,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state,
      resource: `${base}/mcp`,
    });
    const denied = await authorizeInBrowser(base, pro, params('s-deny'), 'deny');
    expect(denied.location.href).toBe(
      `${redirect}?error=access_denied&error_description=The+person+denied+the+request.&state=s-deny&iss=${encodeURIComponent(base)}`,
    );

    const starter = await createPerson(base, 'starter');
    const browser = new Browser();
    const first = await browser.fetch(authorizeUrl(base, params('s-starter')));
    expect(first.status).toBe(303);
    const after = await signInThroughPage(browser, base, first.headers.get('location')!, starter);
    const page = await browser.fetch(new URL(after, base).href);
    expect(page.status).toBe(403);
    expect(page.headers.get('location')).toBeNull();
    const html = await page.text();
    expect(decodeEntities(html)).toContain('on the Starter plan, which has no API access');
    expect(handBackLink(html)).toBe(
      `${redirect}?error=access_denied&error_description=This+account%E2%80%99s+plan+has+no+API+access%3A+connecting+apps+needs+the+Pro+or+Agency+plan.&state=s-starter&iss=${encodeURIComponent(base)}`,
    );
    expect(decodeEntities(html)).toContain(`<strong class="return-address">${redirect}</strong>`);
  });
});
