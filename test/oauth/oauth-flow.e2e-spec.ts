import { bearer } from '../helpers/fixtures';
import {
  Browser,
  OAuthTestApp,
  Person,
  REDIRECT,
  authorizeInBrowser,
  connect,
  createPerson,
  pkce,
  registerClient,
  startOAuthApp,
  token,
} from './oauth-helpers';

describe('OAuth authorization server: discovery, authorization code + PKCE, tokens', () => {
  let app: OAuthTestApp;
  let base: string;
  let person: Person;

  beforeAll(async () => {
    app = await startOAuthApp();
    base = app.base;
    person = await createPerson(base, 'pro');
  });
  afterAll(() => app.close());

  it('serves RFC 9728 and RFC 8414 metadata at the fixed paths, public, cacheable, with CORS', async () => {
    for (const path of [
      '/.well-known/oauth-protected-resource/mcp',
      '/.well-known/oauth-protected-resource',
    ]) {
      const res = await fetch(`${base}${path}`, { headers: { Origin: 'https://claude.ai' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('cache-control')).toMatch(/public/);
      expect(await res.json()).toMatchObject({
        resource: `${base}/mcp`,
        authorization_servers: [base],
        scopes_supported: ['seo:read', 'seo:write'],
        bearer_methods_supported: ['header'],
        resource_name: expect.any(String),
      });
    }
    const res = await fetch(`${base}/.well-known/oauth-authorization-server`);
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(await res.json()).toMatchObject({
      issuer: base,
      authorization_endpoint: `${base}/oauth/authorize`,
      token_endpoint: `${base}/token`,
      registration_endpoint: `${base}/register`,
      revocation_endpoint: `${base}/revoke`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: expect.arrayContaining(['none']),
      scopes_supported: ['seo:read', 'seo:write'],
      client_id_metadata_document_supported: true,
      authorization_response_iss_parameter_supported: true,
    });
  });

  it('registers public clients; refuses non-https, non-loopback redirect URIs with invalid_redirect_uri', async () => {
    const ok = await registerClient(base, {
      redirect_uris: ['https://app.example.com/cb', 'http://localhost:33418/cb', 'http://[::1]/cb'],
    });
    expect(ok.status).toBe(201);
    expect(ok.json).toMatchObject({
      token_endpoint_auth_method: 'none',
      client_name: 'Test Assistant',
    });
    expect(ok.json.client_secret).toBeUndefined();
    expect(ok.json.pk).toBeUndefined();
    expect(ok.json.client_id).toMatch(/^mcp-[0-9a-f-]{36}$/);
    for (const uri of ['http://app.example.com/cb', 'javascript:alert(1)', 'ftp://x.example/cb']) {
      const bad = await registerClient(base, { redirect_uris: [uri] });
      expect(bad.status).toBe(400);
      expect(bad.json.error).toBe('invalid_redirect_uri');
    }
    const none = await registerClient(base, { redirect_uris: [] });
    expect(none.status).toBe(400);
    expect(none.json.error).toBe('invalid_client_metadata');
  });

  it('full flow: sign-in form, consent page, code with state and iss, token, refresh rotation, revocation', async () => {
    const browser = new Browser();
    const client = (await registerClient(base)).json;
    const { verifier, challenge } = pkce();
    const params = {
      response_type: 'code',
      client_id: client.client_id as string,
      redirect_uri: REDIRECT,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 'opaque state/ü',
      resource: `${base}/mcp`,
    };
    // Not signed in: the sign-in form of the account area, returning to the request.
    const first = await browser.fetch(
      `${base}/oauth/authorize?${new URLSearchParams(params).toString()}`,
    );
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toMatch(
      /^\/account\/sign-in\?return_to=%2Foauth%2Fauthorize/,
    );

    const { location, consentHtml } = await authorizeInBrowser(
      base,
      person,
      params,
      'approve',
      browser,
    );
    expect(consentHtml).toContain('Test Assistant');
    expect(consentHtml).toContain('127.0.0.1:9');
    expect(consentHtml).toMatch(/<form method="post"/);
    expect(consentHtml).toMatch(/name="decision" value="approve"/);
    expect(consentHtml).toMatch(/name="decision" value="deny"/);
    expect(consentHtml).toMatch(/name="csrf_token"/);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    expect(location.searchParams.get('state')).toBe('opaque state/ü');
    expect(location.searchParams.get('iss')).toBe(base);
    const code = location.searchParams.get('code')!;
    expect(code).toBeTruthy();

    const tokens = await token(base, {
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      redirect_uri: REDIRECT,
      client_id: client.client_id as string,
      resource: `${base}/mcp`,
    });
    expect(tokens.status).toBe(200);
    expect(tokens.json).toMatchObject({
      token_type: expect.stringMatching(/^bearer$/i),
      expires_in: 3600,
      scope: 'seo:read seo:write',
    });
    const access = tokens.json.access_token as string;
    const refresh = tokens.json.refresh_token as string;
    expect(access).toMatch(/^[A-Za-z0-9_-]{43}$/);

    // Stored hashed only.
    const stored = await app.t.db.query(`SELECT token_hash FROM oauth_tokens`);
    expect(JSON.stringify(stored)).not.toContain(access);
    expect(JSON.stringify(stored)).not.toContain(refresh);

    // Rotation: a new pair; the old refresh token is spent.
    const rotated = await token(base, {
      grant_type: 'refresh_token',
      refresh_token: refresh,
      client_id: client.client_id as string,
    });
    expect(rotated.status).toBe(200);
    expect(rotated.json.refresh_token).not.toBe(refresh);

    // Revocation (RFC 7009): 200 for known and unknown tokens alike.
    const revoke = await fetch(`${base}/revoke`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        token: rotated.json.refresh_token as string,
        client_id: client.client_id as string,
      }),
    });
    expect(revoke.status).toBe(200);
    const unknown = await fetch(`${base}/revoke`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: 'nonsense', client_id: client.client_id as string }),
    });
    expect(unknown.status).toBe(200);
    // The revoked refresh token (and its grant) no longer work.
    const after = await token(base, {
      grant_type: 'refresh_token',
      refresh_token: rotated.json.refresh_token as string,
      client_id: client.client_id as string,
    });
    expect(after.status).toBe(400);
    expect(after.json.error).toBe('invalid_grant');
  });

  it('a refresh never widens the grant, and its scope names what the token carries (issue 38)', async () => {
    const narrow = await connect(base, person, undefined, 'seo:read');
    expect(narrow.tokens.scope).toBe('seo:read');
    const client_id = narrow.client.client_id as string;
    const wider = await token(base, {
      grant_type: 'refresh_token',
      refresh_token: narrow.refresh,
      client_id,
      scope: 'seo:read seo:write',
    });
    expect(wider).toMatchObject({ status: 400, json: { error: 'invalid_scope' } });

    const full = await connect(base, person);
    expect(full.tokens.scope).toBe('seo:read seo:write');
    // Asking for less: the token still carries the grant's scopes, and the answer says so.
    const fewer = await token(base, {
      grant_type: 'refresh_token',
      refresh_token: full.refresh,
      client_id: full.client.client_id as string,
      scope: 'seo:read',
    });
    expect(fewer).toMatchObject({ status: 200, json: { scope: 'seo:read seo:write' } });
  });

  it('OAuth access tokens are not API keys: 401 on /api/v1', async () => {
    const { access } = await connect(base, person);
    const res = await app.t.http().get('/api/v1/usage').set(bearer(access));
    expect(res.status).toBe(401);
  });

  it('deny → access_denied with state and iss', async () => {
    const client = (await registerClient(base)).json;
    const { challenge } = pkce();
    const { location } = await authorizeInBrowser(
      base,
      person,
      {
        response_type: 'code',
        client_id: client.client_id as string,
        redirect_uri: REDIRECT,
        code_challenge: challenge,
        code_challenge_method: 'S256',
        state: 's-deny',
      },
      'deny',
    );
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe('s-deny');
    expect(location.searchParams.get('iss')).toBe(base);
    expect(location.searchParams.get('code')).toBeNull();
  });

  it('Free plan → access_denied', async () => {
    const free = await createPerson(base, 'free');
    const client = (await registerClient(base)).json;
    const { challenge } = pkce();
    const { location } = await authorizeInBrowser(base, free, {
      response_type: 'code',
      client_id: client.client_id as string,
      redirect_uri: REDIRECT,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 's-free',
    });
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe('s-free');
  });
});
