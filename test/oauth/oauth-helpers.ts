import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { createHash, randomBytes } from 'node:crypto';
import * as http from 'node:http';
import * as net from 'node:net';
import { TestApp, TestAppOptions, createTestApp } from '../helpers/test-app';
import { AdminClient, Plan, TestAccount } from '../helpers/fixtures';
import { decodeEntities } from '../helpers/html';

/**
 * The app with PUBLIC_BASE_URL equal to the address it really answers on (the issuer, the
 * resource BASE/mcp and the SDK client's checks need them to agree): a free port is chosen
 * first and the app's express instance also listens there.
 */
export interface OAuthTestApp {
  t: TestApp;
  base: string;
  close(): Promise<void>;
}

export async function startOAuthApp(options: TestAppOptions = {}): Promise<OAuthTestApp> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const t = await createTestApp({
    ...options,
    env: { ...(options.env ?? {}), PUBLIC_BASE_URL: base },
  });
  const server = http.createServer(t.app.getHttpAdapter().getInstance());
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    t,
    base,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await t.close();
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** fetch with a cookie jar and no automatic redirects (a browser, one step at a time). */
export class Browser {
  readonly cookies = new Map<string, string>();

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0) {
      headers.set('Cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    }
    const res = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const pair = line.split(';')[0];
      const name = pair.slice(0, pair.indexOf('='));
      const value = pair.slice(pair.indexOf('=') + 1);
      if (/max-age=0/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  postForm(url: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
    return this.fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(fields).toString(),
    });
  }
}

/** The hidden inputs of the first form of a page. */
export function hiddenInputs(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    out[m[1]] = decodeEntities(m[2]);
  }
  return out;
}

/** The href of the refusal page's "Return to <app>" link (views/hand-back.hbs), or null. */
export function handBackLink(html: string): string | null {
  const m = /<a class="button primary" href="([^"]*)" data-hand-back>/.exec(html);
  return m ? decodeEntities(m[1]) : null;
}

export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export interface Person {
  account: TestAccount;
  userId: number;
  email: string;
  password: string;
}

export async function createPerson(base: string, plan: Plan = 'pro'): Promise<Person> {
  const admin = new AdminClient(base);
  const account = await admin.account(plan);
  const email = `oauth-${randomBytes(5).toString('hex')}@example.com`;
  const password = `pw-${randomBytes(12).toString('hex')}`;
  const res = await admin.post(`/accounts/${account.id}/users`, { email, password });
  if (res.status !== 201) throw new Error(`user create failed: ${JSON.stringify(res.body)}`);
  return { account, userId: res.body.data.id as number, email, password };
}

export const REDIRECT = 'http://127.0.0.1:9/callback';

export async function registerClient(
  base: string,
  body: Record<string, unknown> = {},
): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${base}/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      client_name: 'Test Assistant',
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
      ...body,
    }),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

export function authorizeUrl(base: string, params: Record<string, string | undefined>): string {
  const u = new URL(`${base}/oauth/authorize`);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) u.searchParams.set(k, v);
  return u.href;
}

/** Signs in through the sign-in page the authorize request redirects to; the next Location. */
export async function signInThroughPage(
  browser: Browser,
  base: string,
  signInLocation: string,
  person: Person,
): Promise<string> {
  const page = await browser.fetch(new URL(signInLocation, base).href);
  const html = await page.text();
  if (page.status !== 200) throw new Error(`sign-in page ${page.status}`);
  const fields = hiddenInputs(html);
  const res = await browser.postForm(`${base}/account/sign-in`, {
    ...fields,
    email: person.email,
    password: person.password,
  });
  if (res.status !== 303) throw new Error(`sign-in answered ${res.status}`);
  return res.headers.get('location')!;
}

/**
 * The whole browser part: authorize → sign-in page → back to authorize → consent page →
 * decision. Returns the final redirect (to the client) and the consent HTML.
 */
export async function authorizeInBrowser(
  base: string,
  person: Person,
  params: Record<string, string | undefined>,
  decision: 'approve' | 'deny' = 'approve',
  browser = new Browser(),
): Promise<{ location: URL; consentHtml: string; browser: Browser }> {
  let res = await browser.fetch(authorizeUrl(base, params));
  if (res.status === 303 && res.headers.get('location')!.startsWith('/account/sign-in')) {
    const back = await signInThroughPage(browser, base, res.headers.get('location')!, person);
    res = await browser.fetch(new URL(back, base).href);
  }
  if (res.status !== 200) {
    if (res.status === 302 || res.status === 303) {
      return { location: new URL(res.headers.get('location')!), consentHtml: '', browser };
    }
    const html = await res.text();
    // A refusal explained on our page (signed in): its link hands the error back (issue 36).
    const link = handBackLink(html);
    if (link !== null && (res.status === 400 || res.status === 403)) {
      return { location: new URL(link), consentHtml: '', browser };
    }
    throw new Error(`authorize answered ${res.status}: ${html}`);
  }
  const consentHtml = await res.text();
  const fields = hiddenInputs(consentHtml);
  const posted = await browser.postForm(`${base}/oauth/authorize/decision`, {
    ...fields,
    decision,
  });
  if (posted.status !== 303)
    throw new Error(`decision answered ${posted.status}: ${await posted.text()}`);
  return { location: new URL(posted.headers.get('location')!), consentHtml, browser };
}

export async function token(base: string, fields: Record<string, string | undefined>) {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) body.set(k, v);
  const res = await fetch(`${base}/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: body.toString(),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

/**
 * Register, authorize (sign in + approve) and exchange: a fresh token pair. `scope`: the
 * request's scope parameter (none: every scope offered).
 */
export async function connect(base: string, person: Person, browser?: Browser, scope?: string) {
  const client = (await registerClient(base)).json;
  const { verifier, challenge } = pkce();
  const { location } = await authorizeInBrowser(
    base,
    person,
    {
      response_type: 'code',
      client_id: client.client_id as string,
      redirect_uri: REDIRECT,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 'st-1',
      resource: `${base}/mcp`,
      scope,
    },
    'approve',
    browser,
  );
  const code = location.searchParams.get('code');
  if (!code) throw new Error(`no code: ${location.href}`);
  const tokens = await token(base, {
    grant_type: 'authorization_code',
    code,
    code_verifier: verifier,
    redirect_uri: REDIRECT,
    client_id: client.client_id as string,
    resource: `${base}/mcp`,
  });
  if (tokens.status !== 200) throw new Error(`token: ${JSON.stringify(tokens.json)}`);
  return {
    client,
    code,
    verifier,
    access: tokens.json.access_token as string,
    refresh: tokens.json.refresh_token as string,
    tokens: tokens.json,
  };
}

/**
 * The storage half of an MCP client's OAuth provider (client information, tokens, the PKCE
 * verifier kept in memory), as the SDK's clients implement it; a test's provider adds how its
 * "browser" signs in and decides (`redirectToAuthorization`).
 */
export abstract class InMemoryOAuthProvider implements OAuthClientProvider {
  info?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier?: string;

  constructor(
    private readonly redirect: string,
    private readonly clientName: string,
  ) {}

  get redirectUrl(): string {
    return this.redirect;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.clientName,
      redirect_uris: [this.redirect],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier!;
  }
  abstract redirectToAuthorization(url: URL): Promise<void>;
}
