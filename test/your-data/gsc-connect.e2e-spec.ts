import { createHash } from 'node:crypto';
import { Logger } from '@nestjs/common';
import request from 'supertest';
import { AdminClient, Plan } from '../helpers/fixtures';
import { signIn, SignedInUser } from '../helpers/account-session';
import { createOwnDatabase } from '../helpers/own-database';
import { createTestApp, TestApp } from '../helpers/test-app';
import { GscTokensAtRest } from '../../apps/api/src/gsc-connect/gsc-tokens-at-rest.service';
import { FakeGoogle } from '../fixtures/fake-google';

/**
 * Contract: your-data-collection.md "Search Console: connect and sync" (connect half) against
 * the local fake of Google: the authorization request, state bound to the session and used
 * once, PKCE, the connection stored with its refresh token sealed, the account routes, the
 * `gsc_properties` limit (402, exact under concurrency), disconnect revoking at Google, and
 * another account's rows as 404.
 */
describe('Search Console connect (/account/gsc, /account/v1/gsc)', () => {
  const google = new FakeGoogle();
  let t: TestApp;
  let admin: AdminClient;
  // Its own database: the tokens it seals need a key other suites' processes lack.
  let db: Awaited<ReturnType<typeof createOwnDatabase>>;
  const k1 = Buffer.alloc(32, 7).toString('base64');
  const k2 = Buffer.alloc(32, 9).toString('hex');

  beforeAll(async () => {
    Logger.overrideLogger(false);
    await google.start();
    db = await createOwnDatabase('gsc_connect');
    t = await createTestApp({
      env: google.env({ DATABASE_URL: db.url, SECRETS_ENCRYPTION_KEY: k1 }),
    });
    google.redirectUris.add(`${t.config.publicBaseUrl}/account/gsc/callback`);
    admin = new AdminClient(t.url);
  });
  afterAll(async () => {
    await t.close();
    await google.close();
    await db.drop();
  });

  async function person(plan: Plan = 'pro'): Promise<SignedInUser> {
    const created = await admin.post('/accounts', { name: `gsc ${plan}`, plan });
    return signIn(t.url, created.body.data.id);
  }

  /** The browser's round trip: /account/gsc/connect → Google → the callback. */
  async function connect(me: SignedInUser, as = 'owner@example.com') {
    const { auth, callback: cb } = await google.consentThrough(t.url, me.cookie, as);
    return {
      auth,
      cb,
      callback: () =>
        request(t.url)
          .get(cb.pathname + cb.search)
          .set('Cookie', me.cookie),
    };
  }

  it('connects: documented authorization request, callback stores the connection and its sites', async () => {
    const me = await person();
    const { auth, callback } = await connect(me);
    const p = Object.fromEntries(auth.searchParams);
    expect(p).toMatchObject({
      response_type: 'code',
      client_id: google.clientId,
      redirect_uri: `${t.config.publicBaseUrl}/account/gsc/callback`,
      scope: 'openid email https://www.googleapis.com/auth/webmasters.readonly',
      access_type: 'offline',
      prompt: 'consent',
      code_challenge_method: 'S256',
    });
    expect(p.state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const done = await callback();
    expect(done.status).toBe(303);
    expect(done.headers.location).toMatch(/^\/account\?gsc_connected=\d+#search-console$/);

    const list = await me.get('/gsc/connections');
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([
      {
        connection_id: expect.any(Number),
        google_email: 'owner@example.com',
        status: 'active',
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
        sites: [
          { site_url: 'sc-domain:example.com', permission_level: 'siteOwner', property_id: null },
          {
            site_url: 'https://www.example.com/',
            permission_level: 'siteFullUser',
            property_id: null,
          },
          {
            site_url: 'https://blog.example.org/',
            permission_level: 'siteUnverifiedUser',
            property_id: null,
          },
        ],
      },
    ]);
    // The refresh token is sealed at rest and never shown.
    const [row] = await t.db.query(
      'SELECT refresh_token_enc FROM gsc_connections WHERE account_id = $1',
      [me.accountId],
    );
    expect(row.refresh_token_enc).toMatch(/^enc:v1:/);
    const issued = [...google.refreshTokens.keys()];
    expect(issued.some((tok) => row.refresh_token_enc.includes(tok))).toBe(false);
    expect(JSON.stringify(list.body)).not.toMatch(/1\/\/fake-refresh|enc:v1/);

    // The same Google answer again (replay): the state is spent.
    const replay = await callback();
    expect(replay.status).toBe(400);
  });

  it('refuses a state of another session, a denied consent and an unsigned visitor', async () => {
    const me = await person();
    const other = await person();
    const { cb } = await connect(me);
    const stolen = await request(t.url)
      .get(cb.pathname + cb.search)
      .set('Cookie', other.cookie);
    expect(stolen.status).toBe(400);
    expect((await other.get('/gsc/connections')).body.data).toEqual([]);

    google.denyNext = true;
    const denied = await connect(me);
    expect(denied.cb.searchParams.get('error')).toBe('access_denied');
    expect((await denied.callback()).status).toBe(400);
    expect((await me.get('/gsc/connections')).body.data).toEqual([]);

    const granted = google.grantScope;
    google.grantScope = 'openid https://www.googleapis.com/auth/userinfo.email';
    try {
      const unticked = await (await connect(me)).callback();
      expect(unticked.status).toBe(400);
      expect(unticked.text).toContain('Search Console access was not granted');
    } finally {
      google.grantScope = granted;
    }
    expect((await me.get('/gsc/connections')).body.data).toEqual([]);

    const anonymous = await request(t.url).get('/account/gsc/connect');
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.location).toMatch(/^\/account\/sign-in/);
  });

  it('adds properties under gsc_properties (402 past it, exact under concurrency), 422, 404 of others', async () => {
    google.addUser('many@example.com', [
      ...Array.from({ length: 8 }, (_, i) => ({
        siteUrl: `sc-domain:site${i}.example`,
        permissionLevel: 'siteOwner',
      })),
      { siteUrl: 'https://blog.example.org/', permissionLevel: 'siteUnverifiedUser' },
    ]);
    const me = await person('pro');
    await (await connect(me, 'many@example.com')).callback();
    const [conn] = (await me.get('/gsc/connections')).body.data;
    const id = conn.connection_id;

    const bad = await me.post('/gsc/properties', { connection_id: 'x', site_url: '' });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'connection_id',
      'site_url',
    ]);
    const unverified = await me.post('/gsc/properties', {
      connection_id: id,
      site_url: 'https://blog.example.org/',
    });
    expect([unverified.status, unverified.body.error.details[0].field]).toEqual([422, 'site_url']);
    const unknown = await me.post('/gsc/properties', {
      connection_id: id,
      site_url: 'sc-domain:nope.example',
    });
    expect(unknown.status).toBe(422);

    // Eight at once against a limit of five: exactly five are added.
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        me.post('/gsc/properties', { connection_id: id, site_url: `sc-domain:site${i}.example` }),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(5);
    const refused = answers.filter((a) => a.status === 402);
    expect(refused).toHaveLength(3);
    expect(refused[0].body.error.code).toBe('PAYMENT_REQUIRED');
    expect(refused[0].body.meta).toMatchObject({ limit: 5, used: 5, requested: 1 });
    const added = answers.find((a) => a.status === 201)!.body.data;
    expect(added).toMatchObject({
      property_id: expect.any(Number),
      property_uri: expect.stringMatching(/^sc-domain:site\d\.example$/),
      status: 'active',
      last_synced_at: null,
      last_sync_status: 'pending',
      google_email: 'many@example.com',
      is_sandbox: false,
    });
    // Shown by the usage view like the other limits.
    const usage = await me.get('/usage');
    expect(usage.body.data.quotas.gsc_properties).toEqual({ used: 5, limit: 5 });
    // The public list has it too.
    const listed = (await me.get('/gsc/connections')).body.data[0].sites.filter(
      (s: { property_id: number | null }) => s.property_id,
    );
    expect(listed).toHaveLength(5);

    // An admin override raises the limit.
    await admin.patch(`/accounts/${me.accountId}`, { overrides: { gsc_properties: 6 } });
    const added5 = new Set(
      answers.filter((a) => a.status === 201).map((a) => a.body.data.property_uri),
    );
    const spare = Array.from({ length: 8 }, (_, i) => `sc-domain:site${i}.example`).filter(
      (u) => !added5.has(u),
    );
    expect(
      (await me.post('/gsc/properties', { connection_id: id, site_url: spare[0] })).status,
    ).toBe(201);
    expect(
      (await me.post('/gsc/properties', { connection_id: id, site_url: spare[1] })).status,
    ).toBe(402);

    // Another account: 404 on both kinds of row.
    const other = await person('pro');
    expect(
      (
        await other.post('/gsc/properties', {
          connection_id: id,
          site_url: 'sc-domain:site0.example',
        })
      ).status,
    ).toBe(404);
    expect((await other.delete(`/gsc/properties/${added.property_id}`)).status).toBe(404);
    expect((await other.delete(`/gsc/connections/${id}`)).status).toBe(404);

    // Sandbox properties only without a Google client.
    expect((await me.post('/gsc/sandbox-properties')).status).toBe(403);

    // Remove a property with its facts.
    const removed = await me.delete(`/gsc/properties/${added.property_id}`);
    expect(removed.status).toBe(200);
    expect((await me.delete(`/gsc/properties/${added.property_id}`)).status).toBe(404);
  });

  it('disconnect revokes at Google, pauses the properties and keeps their data', async () => {
    const me = await person('agency');
    await (await connect(me)).callback();
    const [conn] = (await me.get('/gsc/connections')).body.data;
    const prop = await me.post('/gsc/properties', {
      connection_id: conn.connection_id,
      site_url: 'sc-domain:example.com',
    });
    expect(prop.status).toBe(201);
    const revokesBefore = google.requests.filter((r) => r.path === '/revoke').length;
    const gone = await me.delete(`/gsc/connections/${conn.connection_id}`);
    expect(gone.status).toBe(200);
    expect(gone.body.data.status).toBe('revoked');
    expect(google.requests.filter((r) => r.path === '/revoke').length).toBe(revokesBefore + 1);
    expect((await me.get('/gsc/connections')).body.data).toEqual([]);
    const [kept] = (await me.get('/gsc/properties')).body.data;
    expect(kept).toMatchObject({
      property_id: prop.body.data.property_id,
      status: 'paused',
      connection_id: null,
    });
  });

  it('tokens at rest: re-sealed under a new key (secrets:rotate); start-up refuses without the key they need', async () => {
    const me = await person('pro');
    await (await connect(me)).callback();
    const next = await createTestApp({
      env: google.env({
        DATABASE_URL: db.url,
        SECRETS_ENCRYPTION_KEY: k2,
        SECRETS_ENCRYPTION_KEYS_OLD: k1,
      }),
    });
    try {
      const first = await next.app.get(GscTokensAtRest).reencryptAll();
      expect(first.reencrypted).toBeGreaterThan(0);
      expect((await next.app.get(GscTokensAtRest).reencryptAll()).reencrypted).toBe(0);
      const kid2 = createHash('sha256').update(Buffer.from(k2, 'hex')).digest('hex').slice(0, 8);
      const kids = await next.db.query(
        `SELECT DISTINCT split_part(refresh_token_enc, ':', 3) AS kid FROM gsc_connections`,
      );
      expect(kids).toEqual([{ kid: kid2 }]);
      // Still opens: the disconnect revokes the very token Google issued.
      const [conn] = (await asUser(next, me).get('/account/v1/gsc/connections')).body.data;
      const revokedBefore = [...google.refreshTokens.values()].filter((r) => r.revoked).length;
      const gone = await asUser(next, me).delete(
        `/account/v1/gsc/connections/${conn.connection_id}`,
      );
      expect(gone.status).toBe(200);
      expect([...google.refreshTokens.values()].filter((r) => r.revoked).length).toBe(
        revokedBefore + 1,
      );
    } finally {
      await next.close();
    }
    await expect(
      createTestApp({ env: google.env({ DATABASE_URL: db.url, SECRETS_ENCRYPTION_KEY: k1 }) }),
    ).rejects.toThrow(/Google refresh tokens are encrypted with key id\(s\) [0-9a-f]{8}/);
  });

  /** The same person's requests to another app instance (same database). */
  function asUser(app: TestApp, me: SignedInUser) {
    return {
      get: (path: string) => request(app.url).get(path).set('Cookie', me.cookie),
      delete: (path: string) => request(app.url).delete(path).set('Cookie', me.cookie),
    };
  }
});
