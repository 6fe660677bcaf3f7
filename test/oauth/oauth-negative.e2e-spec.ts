import { OAuthGrantsService } from '@app/oauth';
import { AdminClient } from '../helpers/fixtures';
import {
  Browser,
  OAuthTestApp,
  Person,
  REDIRECT,
  authorizeInBrowser,
  authorizeUrl,
  connect,
  createPerson,
  handBackLink,
  hiddenInputs,
  pkce,
  registerClient,
  signInThroughPage,
  startOAuthApp,
  token,
} from './oauth-helpers';

describe('OAuth authorization server: refusals', () => {
  let app: OAuthTestApp;
  let base: string;
  let person: Person;
  let clientId: string;
  let grants: OAuthGrantsService;
  const isLive = async (access: string) => (await grants.authenticate(access)) !== null;

  const params = (challenge: string, extra: Record<string, string | undefined> = {}) => ({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'st',
    ...extra,
  });

  beforeAll(async () => {
    app = await startOAuthApp({ now: '2031-03-01T10:00:00Z' });
    base = app.base;
    grants = app.t.app.get(OAuthGrantsService);
    person = await createPerson(base, 'pro');
    clientId = (await registerClient(base)).json.client_id as string;
  });
  afterAll(() => app.close());

  it('missing PKCE or the plain method: error to the redirect_uri, no code', async () => {
    for (const extra of [
      { code_challenge: undefined, code_challenge_method: undefined },
      { code_challenge_method: 'plain' },
      { code_challenge_method: undefined },
    ]) {
      const { location } = await authorizeInBrowser(base, person, params('x'.repeat(43), extra));
      expect(location.searchParams.get('error')).toBe('invalid_request');
      expect(location.searchParams.get('code')).toBeNull();
      expect(location.searchParams.get('state')).toBe('st');
      expect(location.searchParams.get('iss')).toBe(base);
    }
  });

  it('a POSTed authorization request: the sign-in form returns to it as a GET', async () => {
    const { challenge } = pkce();
    const res = await fetch(`${base}/oauth/authorize`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(params(challenge) as Record<string, string>).toString(),
    });
    expect(res.status).toBe(303);
    const back = new URL(res.headers.get('location')!, base).searchParams.get('return_to')!;
    expect(back.startsWith('/oauth/authorize?')).toBe(true);
    expect(new URLSearchParams(back.split('?')[1]).get('code_challenge')).toBe(challenge);
  });

  it('unknown client or unregistered redirect_uri: an error page, no redirect', async () => {
    const { challenge } = pkce();
    const cases = [
      params(challenge, { client_id: 'mcp-00000000-0000-0000-0000-000000000000' }),
      params(challenge, { redirect_uri: 'https://evil.example/cb' }),
      params(challenge, { redirect_uri: 'http://127.0.0.1:9/other' }),
      // Compared exactly (issue 21): a fragment, user info, another case, a slash, a query.
      params(challenge, { redirect_uri: `${REDIRECT}#frag` }),
      params(challenge, { redirect_uri: REDIRECT.replace('http://', 'http://evil@') }),
      params(challenge, { redirect_uri: `${REDIRECT}/` }),
      params(challenge, { redirect_uri: `${REDIRECT}?next=https://evil.example` }),
      params(challenge, { redirect_uri: REDIRECT.replace('callback', 'CALLBACK') }),
      params(challenge, { redirect_uri: REDIRECT.replace('127.0.0.1', 'localhost') }),
      params(challenge, { client_id: 'x'.repeat(5000) }),
      {},
    ];
    for (const p of cases) {
      const res = await fetch(authorizeUrl(base, p), { redirect: 'manual' });
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(res.headers.get('content-type')).toMatch(/text\/html/);
    }
  });

  it('the sign-in step names the app asking: its registered name, escaped; "an app" when not known (issue 25)', async () => {
    const { challenge } = pkce();
    const name = '<img src=x onerror=alert(1)> & "Claude"';
    const hostile = (await registerClient(base, { client_name: name })).json.client_id as string;
    const heading =
      '<h1>Sign in to connect &lt;img src&#x3D;x onerror&#x3D;alert(1)&gt; &amp; &quot;Claude&quot;</h1>';
    const browser = new Browser();
    const first = await browser.fetch(
      authorizeUrl(base, params(challenge, { client_id: hostile })),
    );
    expect(first.status).toBe(303);
    const page = await browser.fetch(new URL(first.headers.get('location')!, base).href);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain(heading);
    expect(html).toContain(`<title>Sign in to connect &lt;img`);
    expect(html).not.toContain('<img src=x');

    // A wrong password: the form comes back, still naming the app.
    const wrong = await browser.postForm(`${base}/account/sign-in`, {
      ...hiddenInputs(html),
      email: person.email,
      password: 'not-the-password',
    });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain(heading);

    // A return_to naming a client we do not know (authorize would refuse it): no name shown.
    const unknown = await browser.fetch(
      `${base}/account/sign-in?return_to=${encodeURIComponent(
        '/oauth/authorize?client_id=mcp-00000000-0000-0000-0000-000000000000',
      )}`,
    );
    const unknownHtml = await unknown.text();
    expect(unknownHtml).toContain('<h1>Sign in to connect an app</h1>');
    // Any other return_to: the plain sign-in page.
    const plain = await browser.fetch(`${base}/account/sign-in?return_to=%2Faccount`);
    expect(await plain.text()).toContain('<h1>Sign in to your account</h1>');
  });

  it('a loopback redirect_uri may use another port (RFC 8252), nothing else', async () => {
    const { challenge } = pkce();
    const other = REDIRECT.replace(':9/', ':45123/');
    const { location } = await authorizeInBrowser(
      base,
      person,
      params(challenge, { redirect_uri: other }),
    );
    expect(location.origin).toBe('http://127.0.0.1:45123');
    expect(location.searchParams.get('code')).toBeTruthy();
  });

  it('wrong verifier → invalid_grant; the code still works once with the right one', async () => {
    const { verifier, challenge } = pkce();
    const { location } = await authorizeInBrowser(base, person, params(challenge));
    const code = location.searchParams.get('code')!;
    const wrong = await token(base, {
      grant_type: 'authorization_code',
      code,
      code_verifier: pkce().verifier,
      redirect_uri: REDIRECT,
      client_id: clientId,
    });
    expect(wrong.status).toBe(400);
    expect(wrong.json.error).toBe('invalid_grant');
    const missing = await token(base, {
      grant_type: 'authorization_code',
      code,
      client_id: clientId,
    });
    expect(missing.status).toBe(400);
    expect(missing.json.error).toBe('invalid_request');
    const ok = await token(base, {
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      redirect_uri: REDIRECT,
      client_id: clientId,
    });
    expect(ok.status).toBe(200);
  });

  it('a reused code → invalid_grant, and the tokens of its first use are revoked', async () => {
    const first = await connect(base, person);
    expect(await isLive(first.access)).toBe(true);
    const again = await token(base, {
      grant_type: 'authorization_code',
      code: first.code,
      code_verifier: first.verifier,
      redirect_uri: REDIRECT,
      client_id: first.client.client_id as string,
    });
    expect(again.status).toBe(400);
    expect(again.json.error).toBe('invalid_grant');
    expect(await isLive(first.access)).toBe(false);
    const refresh = await token(base, {
      grant_type: 'refresh_token',
      refresh_token: first.refresh,
      client_id: first.client.client_id as string,
    });
    expect(refresh.json.error).toBe('invalid_grant');
  });

  it('another redirect_uri at the token endpoint, or another client → invalid_grant', async () => {
    const { verifier, challenge } = pkce();
    const { location } = await authorizeInBrowser(base, person, params(challenge));
    const code = location.searchParams.get('code')!;
    const other = (await registerClient(base)).json.client_id as string;
    const byOther = await token(base, {
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      client_id: other,
    });
    expect(byOther.json.error).toBe('invalid_grant');
    const elsewhere = await token(base, {
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      redirect_uri: 'http://127.0.0.1:9/elsewhere',
      client_id: clientId,
    });
    expect(elsewhere.json.error).toBe('invalid_grant');
  });

  it('a token for another resource: invalid_target at authorize and at the token endpoint', async () => {
    const { verifier, challenge } = pkce();
    const denied = await authorizeInBrowser(
      base,
      person,
      params(challenge, { resource: 'https://other.example/mcp' }),
    );
    expect(denied.location.searchParams.get('error')).toBe('invalid_target');
    const { location } = await authorizeInBrowser(base, person, params(challenge));
    const res = await token(base, {
      grant_type: 'authorization_code',
      code: location.searchParams.get('code')!,
      code_verifier: verifier,
      redirect_uri: REDIRECT,
      client_id: clientId,
      resource: 'https://other.example/mcp',
    });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('invalid_target');
  });

  it('expiry: codes after 60 s, access tokens after 1 h (ManualClock)', async () => {
    const { verifier, challenge } = pkce();
    const { location } = await authorizeInBrowser(base, person, params(challenge));
    app.t.clock.advance(61_000);
    const late = await token(base, {
      grant_type: 'authorization_code',
      code: location.searchParams.get('code')!,
      code_verifier: verifier,
      redirect_uri: REDIRECT,
      client_id: clientId,
    });
    expect(late.json.error).toBe('invalid_grant');

    const { access } = await connect(base, person);
    expect(await isLive(access)).toBe(true);
    app.t.clock.advance(3_601_000);
    expect(await isLive(access)).toBe(false);
    const res = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${access}`,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it('a reused refresh token revokes the whole grant', async () => {
    const first = await connect(base, person);
    const cid = first.client.client_id as string;
    const rotated = await token(base, {
      grant_type: 'refresh_token',
      refresh_token: first.refresh,
      client_id: cid,
    });
    expect(rotated.status).toBe(200);
    const reuse = await token(base, {
      grant_type: 'refresh_token',
      refresh_token: first.refresh,
      client_id: cid,
    });
    expect(reuse.json.error).toBe('invalid_grant');
    expect(await isLive(rotated.json.access_token as string)).toBe(false);
    const next = await token(base, {
      grant_type: 'refresh_token',
      refresh_token: rotated.json.refresh_token as string,
      client_id: cid,
    });
    expect(next.json.error).toBe('invalid_grant');
  });

  it('a refresh revokes the previous access token at once; the new one works (issue 35)', async () => {
    const first = await connect(base, person);
    const cid = first.client.client_id as string;
    const onMcp = (access: string) =>
      fetch(`${base}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${access}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      });
    expect((await onMcp(first.access)).status).toBe(200);
    const rotated = await token(base, {
      grant_type: 'refresh_token',
      refresh_token: first.refresh,
      client_id: cid,
    });
    expect(rotated.status).toBe(200);
    const next = rotated.json.access_token as string;
    expect(await isLive(first.access)).toBe(false);
    expect((await onMcp(first.access)).status).toBe(401);
    expect(await isLive(next)).toBe(true);
    expect((await onMcp(next)).status).toBe(200);
    // A second rotation ends the second token too, and only the newest works.
    const again = await token(base, {
      grant_type: 'refresh_token',
      refresh_token: rotated.json.refresh_token as string,
      client_id: cid,
    });
    expect(again.status).toBe(200);
    expect(await isLive(next)).toBe(false);
    expect(await isLive(again.json.access_token as string)).toBe(true);
    // Another grant of the same person is not touched.
    const other = await connect(base, person);
    const third = await token(base, {
      grant_type: 'refresh_token',
      refresh_token: again.json.refresh_token as string,
      client_id: cid,
    });
    expect(third.status).toBe(200);
    expect(await isLive(other.access)).toBe(true);
  });

  it('a refused refresh revokes nothing: the current access token keeps working (issue 35)', async () => {
    const first = await connect(base, person);
    const refused = await token(base, {
      grant_type: 'refresh_token',
      refresh_token: first.refresh,
      client_id: first.client.client_id as string,
      resource: 'https://elsewhere.example/mcp',
    });
    expect(refused.status).toBe(400);
    expect(await isLive(first.access)).toBe(true);
  });

  it('a code_challenge the approval would refuse: error redirect to the app before sign-in and consent (issue 35)', async () => {
    for (const challenge of [
      'abc',
      'x'.repeat(42),
      'x'.repeat(129),
      `${'x'.repeat(42)}.`,
      `${'x'.repeat(42)}~`,
      `${'x'.repeat(42)}=`,
      `${'x'.repeat(42)} `,
      '',
    ]) {
      const res = await fetch(authorizeUrl(base, params(challenge)), { redirect: 'manual' });
      expect(res.status).toBe(302);
      const location = new URL(res.headers.get('location')!);
      expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
      expect(location.searchParams.get('error')).toBe('invalid_request');
      expect(location.searchParams.get('error_description')).toMatch(/^code_challenge /);
      expect(location.searchParams.get('error_description')).not.toMatch(/[\n[\]{}]/);
      expect(location.searchParams.get('state')).toBe('st');
      expect(location.searchParams.get('iss')).toBe(base);
      expect(location.searchParams.get('code')).toBeNull();
    }
    // Signed in: the same refusal, never the consent page; handed back through our page's link
    // (a redirect could be in the sign-in form's chain, which its CSP blocks: issue 36).
    const browser = new Browser();
    await authorizeInBrowser(base, person, params(pkce().challenge), 'deny', browser);
    for (const extra of [
      {},
      { code_challenge_method: 'S512' },
      { code_challenge_method: 'plain' },
    ]) {
      const res = await browser.fetch(authorizeUrl(base, params('short', extra)));
      expect(res.status).toBe(400);
      const html = await res.text();
      expect(html).not.toContain('name="decision"');
      const location = new URL(handBackLink(html)!);
      expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
      expect(location.searchParams.get('error')).toBe('invalid_request');
      expect(location.searchParams.get('state')).toBe('st');
      expect(location.searchParams.get('code')).toBeNull();
    }
  });

  it('a consent form sent back with another challenge or method: error redirect to the app, no code (issue 35)', async () => {
    const browser = new Browser();
    const { challenge } = pkce();
    let res = await browser.fetch(authorizeUrl(base, params(challenge)));
    if (res.status === 303) {
      const back = await signInThroughPage(browser, base, res.headers.get('location')!, person);
      res = await browser.fetch(new URL(back, base).href);
    }
    expect(res.status).toBe(200);
    const fields = hiddenInputs(await res.text());
    const tamperedForms: Array<Record<string, string>> = [
      { code_challenge: 'short' },
      { code_challenge_method: 'plain' },
      { code_challenge: `${challenge.slice(0, 42)}.` },
    ];
    for (const tampered of tamperedForms) {
      const posted = await browser.postForm(`${base}/oauth/authorize/decision`, {
        ...fields,
        ...tampered,
        decision: 'approve',
      });
      expect(posted.status).toBe(303);
      const location = new URL(posted.headers.get('location')!);
      expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
      expect(location.searchParams.get('error')).toBe('invalid_request');
      expect(location.searchParams.get('code')).toBeNull();
      expect(location.searchParams.get('iss')).toBe(base);
    }
  });

  it('a malformed body to /register or /token: OAuth invalid_request JSON, not the API envelope (issue 35)', async () => {
    const cases: Array<[string, string, string]> = [
      ['/register', 'application/json', '{"redirect_uris":'],
      ['/register', 'application/json', 'not json'],
      ['/register', 'application/json', `${'['.repeat(200)}${']'.repeat(200)}`],
      ['/token', 'application/json', '{"grant_type":'],
      ['/token', 'application/json', '{"grant_type":"refresh_token"}}'],
      ['/revoke', 'application/json', '{"token":'],
    ];
    for (const [path, type, body] of cases) {
      const res = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': type, Origin: 'https://inspector.example' },
        body,
      });
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('cache-control')).toBe('no-store');
      const json = (await res.json()) as Record<string, unknown>;
      expect(Object.keys(json).sort()).toEqual(['error', 'error_description']);
      expect(json.error).toBe('invalid_request');
      expect(json.error_description).toMatch(/^The request body /);
    }
    // Well-formed bodies still reach the handlers.
    expect((await registerClient(base)).status).toBe(201);
    // Malformed JSON elsewhere keeps the REST envelope.
    const rest = await fetch(`${base}/api/v1/keyword-research`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"keyword":',
    });
    expect(((await rest.json()) as { error?: { code?: string } }).error?.code).toBe('BAD_REQUEST');
  });

  it('error descriptions are one short sentence naming the field, not a schema dump (issue 21)', async () => {
    const readable = (description: unknown) => {
      expect(typeof description).toBe('string');
      const d = description as string;
      expect(d).not.toMatch(/[\n[\]{}]/);
      expect(d.length).toBeLessThanOrEqual(120);
      return d;
    };
    const cases: Array<[Record<string, string>, string]> = [
      [{}, 'client_id is required.'],
      [{ client_id: clientId }, 'grant_type is required.'],
      [{ grant_type: 'authorization_code', client_id: clientId }, 'code is required.'],
      [
        { grant_type: 'authorization_code', client_id: clientId, code: 'abc' },
        'code_verifier is required.',
      ],
      [{ grant_type: 'refresh_token', client_id: clientId }, 'refresh_token is required.'],
    ];
    for (const [fields, says] of cases) {
      const res = await token(base, fields);
      expect(res.status).toBe(400);
      expect(res.json.error).toBe('invalid_request');
      expect(readable(res.json.error_description)).toBe(says);
    }
    const unsupported = await token(base, { grant_type: 'password', client_id: clientId });
    expect(unsupported.json.error).toBe('unsupported_grant_type');
    readable(unsupported.json.error_description);

    const { location } = await authorizeInBrowser(
      base,
      person,
      params('x'.repeat(43), { code_challenge_method: 'plain' }),
    );
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(readable(location.searchParams.get('error_description'))).toBe(
      'code_challenge_method must be S256.',
    );
    const missing = await authorizeInBrowser(
      base,
      person,
      params('x'.repeat(43), { code_challenge: undefined }),
    );
    expect(readable(missing.location.searchParams.get('error_description'))).toBe(
      'code_challenge is required.',
    );
    const badType = await authorizeInBrowser(
      base,
      person,
      params('x'.repeat(43), { response_type: 'token' }),
    );
    expect(badType.location.searchParams.get('error')).toMatch(
      /invalid_request|unsupported_response_type/,
    );
    readable(badType.location.searchParams.get('error_description'));
  });

  it('bad input is an RFC 6749 error, never a 500', async () => {
    const cases: Array<Record<string, string>> = [
      {},
      { grant_type: 'password', client_id: clientId },
      { grant_type: 'client_credentials', client_id: clientId },
      { grant_type: 'authorization_code', client_id: clientId, code: 'x', code_verifier: 'y' },
      { grant_type: 'refresh_token', client_id: clientId, refresh_token: 'x'.repeat(10_000) },
      {
        grant_type: 'authorization_code',
        client_id: 'https://127.0.0.1/c.json',
        code: 'x',
        code_verifier: 'y',
      },
      { grant_type: 'authorization_code', client_id: 'nope', code: 'x', code_verifier: 'y' },
    ];
    for (const c of cases) {
      const res = await token(base, c);
      expect(res.status).toBe(400);
      expect(typeof res.json.error).toBe('string');
    }
    const json = await fetch(`${base}/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"grant_type":',
    });
    expect(json.status).toBeLessThan(500);
    const get = await fetch(`${base}/token`);
    expect(get.status).toBe(405);
    const reg = await fetch(`${base}/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ redirect_uris: 'not-a-list' }),
    });
    expect(reg.status).toBe(400);
  });

  it('client endpoints answer any origin (CORS); the consent form refuses cross-site posts', async () => {
    const preflight = await fetch(`${base}/token`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://inspector.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(preflight.status).toBeLessThan(300);
    expect(preflight.headers.get('access-control-allow-origin')).toBeTruthy();
    const cross = await fetch(`${base}/token`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Origin: 'https://inspector.example',
      },
      body: 'grant_type=refresh_token&refresh_token=x&client_id=' + encodeURIComponent(clientId),
    });
    expect(cross.status).toBe(400);
    expect(cross.headers.get('access-control-allow-origin')).toBeTruthy();
    const consent = await fetch(`${base}/oauth/authorize/decision`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Origin: 'https://evil.example',
      },
      body: 'decision=approve',
    });
    expect(consent.status).toBe(403);
    // The 2025-03-26 fallback path.
    const fallback = await fetch(`${base}/authorize?client_id=x&state=1`, { redirect: 'manual' });
    expect(fallback.status).toBe(302);
    expect(fallback.headers.get('location')).toBe('/oauth/authorize?client_id=x&state=1');
  });

  it('Client ID Metadata Documents on private-network addresses are refused (unknown client, no fetch)', async () => {
    const { challenge } = pkce();
    for (const url of [
      'https://127.0.0.1/client.json',
      'https://localhost/client.json',
      'https://10.0.0.1/client.json',
      'https://[::1]/client.json',
      'https://169.254.169.254/latest/meta-data',
    ]) {
      const res = await fetch(authorizeUrl(base, params(challenge, { client_id: url })), {
        redirect: 'manual',
      });
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
    }
  });

  it('a connection of another account is 404; removing the user ends its tokens', async () => {
    const other = await createPerson(base, 'pro');
    const browser = new Browser();
    const mine = await connect(base, person, browser);
    const theirs = await connect(base, other);
    const [grant] = (await app.t.db.query(
      `SELECT t.grant_id FROM oauth_tokens t WHERE t.kind = 'access' ORDER BY t.id DESC LIMIT 1`,
    )) as Array<{ grant_id: number }>;
    const res = await browser.fetch(`${base}/account/v1/connections/${grant.grant_id}`, {
      method: 'DELETE',
    });
    expect(res.status).toBe(404);
    expect(await isLive(theirs.access)).toBe(true);
    expect(await isLive(mine.access)).toBe(true);

    const removed = await new AdminClient(base).delete(`/users/${other.userId}`);
    expect(removed.status).toBe(200);
    expect(await isLive(theirs.access)).toBe(false);
  });

  it('a downgrade to a plan without API access ends the grants: tokens refused, not back with an upgrade (issue 21)', async () => {
    const p = await createPerson(base, 'pro');
    const { access, refresh, client } = await connect(base, p);
    const other = await connect(base, p); // a second connected app of the same account
    expect((await grants.authenticate(access))!.auth.plan).toBe('pro');
    expect(await grants.connections(p.account.id)).toHaveLength(2);
    const admin = new AdminClient(base);
    // A change that keeps API access (agency) ends nothing.
    expect((await admin.patch(`/accounts/${p.account.id}`, { plan: 'agency' })).status).toBe(200);
    expect(await isLive(access)).toBe(true);
    expect((await admin.patch(`/accounts/${p.account.id}`, { plan: 'free' })).status).toBe(200);
    const mcp = (bearerToken: string) =>
      fetch(`${base}/mcp`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${bearerToken}`,
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      });
    expect((await mcp(access)).status).toBe(401);
    expect(await isLive(other.access)).toBe(false);
    expect(await grants.connections(p.account.id)).toEqual([]);
    // Upgraded again: the old tokens stay ended; the refresh token does not refresh.
    expect((await admin.patch(`/accounts/${p.account.id}`, { plan: 'pro' })).status).toBe(200);
    expect((await mcp(access)).status).toBe(401);
    const refreshed = await token(base, {
      grant_type: 'refresh_token',
      refresh_token: refresh,
      client_id: client.client_id as string,
    });
    expect(refreshed.status).toBe(400);
    expect(refreshed.json.error).toBe('invalid_grant');
    expect(await grants.connections(p.account.id)).toEqual([]);
    // A new connection after the upgrade works.
    const again = await connect(base, p);
    expect((await mcp(again.access)).status).toBe(200);
  });

  it('a refused refresh request does not spend the token; the next normal refresh works (issue 21)', async () => {
    // A grant of seo:read only, so that seo:write is a scope beyond it.
    const first = await connect(base, person, undefined, 'seo:read');
    const cid = first.client.client_id as string;
    const otherClient = (await registerClient(base)).json.client_id as string;
    const refusals: Array<[Record<string, string>, string]> = [
      [{ scope: 'seo:write' }, 'invalid_scope'],
      [{ scope: 'admin' }, 'invalid_scope'],
      [{ scope: 'seo:read admin' }, 'invalid_scope'],
      [{ client_id: otherClient }, 'invalid_grant'],
      [{ resource: 'https://elsewhere.example/mcp' }, 'invalid_target'],
    ];
    for (const [extra, error] of refusals) {
      const refused = await token(base, {
        grant_type: 'refresh_token',
        refresh_token: first.refresh,
        client_id: cid,
        ...extra,
      });
      expect({ extra, status: refused.status, error: refused.json.error }).toEqual({
        extra,
        status: 400,
        error,
      });
    }
    expect(await isLive(first.access)).toBe(true);
    const rotated = await token(base, {
      grant_type: 'refresh_token',
      refresh_token: first.refresh,
      client_id: cid,
    });
    expect(rotated.status).toBe(200);
    expect(await isLive(rotated.json.access_token as string)).toBe(true);
    // Two concurrent refreshes with one token: one wins, the other is reuse (grant revoked).
    const race = await Promise.all(
      [1, 2].map(() =>
        token(base, {
          grant_type: 'refresh_token',
          refresh_token: rotated.json.refresh_token as string,
          client_id: cid,
        }),
      ),
    );
    expect(race.map((r) => r.status).sort()).toEqual([200, 400]);
    const winner = race.find((r) => r.status === 200)!;
    expect(await isLive(winner.json.access_token as string)).toBe(false);
  });
});

describe('OAuth dynamic registration: rate limit per IP (Redis)', () => {
  let app: OAuthTestApp;
  afterAll(() => app.close());

  it('allows at least 20 an hour, then 429 with Retry-After; a new hour starts over', async () => {
    // A clock hour no other suite uses: the counter is per IP and clock hour.
    app = await startOAuthApp({ now: '2033-07-07T07:00:00Z' });
    let allowed = 0;
    let refused: Response | null = null;
    for (let i = 0; i < 40 && !refused; i += 1) {
      const res = await fetch(`${app.base}/register`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' }),
      });
      if (res.status === 201) allowed += 1;
      else refused = res;
    }
    expect(allowed).toBeGreaterThanOrEqual(20);
    expect(refused?.status).toBe(429);
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await refused!.json()) as { error: string }).error).toBe('too_many_requests');
    app.t.clock.advance(3_600_000);
    expect((await registerClient(app.base)).status).toBe(201);
  });
});
