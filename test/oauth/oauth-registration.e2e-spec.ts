import { OAuthClientPurgeService, OAuthClientsRepository } from '@app/oauth';
import {
  OAuthTestApp,
  REDIRECT,
  connect,
  createPerson,
  registerClient,
  startOAuthApp,
} from './oauth-helpers';

/** One registration from a client address (the apps trust the loopback proxy's X-Forwarded-For). */
async function registerFrom(base: string, address: string, body: Record<string, unknown> = {}) {
  const res = await fetch(`${base}/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': address },
    body: JSON.stringify({
      client_name: 'Test Assistant',
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
      ...body,
    }),
  });
  return {
    status: res.status,
    retryAfter: res.headers.get('retry-after'),
    json: (await res.json()) as Record<string, unknown>,
  };
}

describe('OAuth dynamic registration: bounds per address, per /64 and per hour (issue 21)', () => {
  let app: OAuthTestApp;
  beforeAll(async () => {
    // A clock hour no other suite uses: the counters are per clock hour.
    app = await startOAuthApp({
      now: '2035-01-01T00:00:00Z',
      env: {
        TRUST_PROXY: 'loopback',
        OAUTH_REGISTRATIONS_PER_ADDRESS: '3',
        OAUTH_REGISTRATIONS_PER_HOUR: '8',
      },
    });
  });
  afterAll(() => app?.close());

  it('an IPv6 /64 counts as one address, IPv4 (also IPv4-mapped) per address, then the hour is full', async () => {
    const statuses = async (addresses: string[]) => {
      const out: number[] = [];
      for (const a of addresses) out.push((await registerFrom(app.base, a)).status);
      return out;
    };
    // Three from one /64, whatever the interface id; the fourth is refused.
    expect(
      await statuses(['2001:db8:1:2::1', '2001:db8:1:2::2', '2001:db8:1:2:ffff:ffff:ffff:ffff']),
    ).toEqual([201, 201, 201]);
    const sameNet = await registerFrom(app.base, '2001:db8:1:2:abcd::9');
    expect(sameNet.status).toBe(429);
    expect(sameNet.json.error).toBe('too_many_requests');
    expect(sameNet.json.error_description).toMatch(/from this address/);
    expect(Number(sameNet.retryAfter)).toBeGreaterThan(0);
    // Another /64 is another address.
    expect(await statuses(['2001:db8:1:3::1'])).toEqual([201]);
    // IPv4: per address; the IPv4-mapped spelling is the same address.
    expect(await statuses(['198.51.100.7', '198.51.100.7', '198.51.100.7'])).toEqual([
      201, 201, 201,
    ]);
    expect(await statuses(['198.51.100.7', '::ffff:198.51.100.7'])).toEqual([429, 429]);
    // 7 registrations counted overall (refusals are not); the 8th fills the hour.
    expect(await statuses(['203.0.113.1'])).toEqual([201]);
    const full = await registerFrom(app.base, '203.0.113.2');
    expect(full.status).toBe(429);
    expect(full.json.error_description).toMatch(/this hour/);
    expect(Number(full.retryAfter)).toBeGreaterThan(0);
    expect(Number(full.retryAfter)).toBeLessThanOrEqual(3600);
    // A new hour starts over.
    app.t.clock.advance(3_600_000);
    expect(await statuses(['203.0.113.2', '2001:db8:1:2::1'])).toEqual([201, 201]);
  });
});

describe('OAuth dynamic registration: metadata bounds, each value stored once, purge of unused clients (issue 21)', () => {
  let app: OAuthTestApp;
  let n = 0;
  const from = (body: Record<string, unknown>) =>
    registerFrom(app.base, `192.0.2.${(n++ % 250) + 1}`, body);

  beforeAll(async () => {
    app = await startOAuthApp({ now: '2035-02-01T00:00:00Z', env: { TRUST_PROXY: 'loopback' } });
  });
  afterAll(() => app?.close());

  it('redirect URIs (count, length), client_name and the whole body are bounded', async () => {
    const uri = (length: number) => {
      const head = 'https://app.example/';
      return head + 'a'.repeat(length - head.length);
    };
    expect((await from({ redirect_uris: [uri(512)] })).status).toBe(201);
    const long = await from({ redirect_uris: [uri(513)] });
    expect(long.status).toBe(400);
    expect(long.json.error).toBe('invalid_redirect_uri');
    const ten = Array.from({ length: 10 }, (_, i) => `http://127.0.0.1:${9000 + i}/cb`);
    expect((await from({ redirect_uris: ten })).status).toBe(201);
    const eleven = await from({ redirect_uris: [...ten, 'http://127.0.0.1:9999/cb'] });
    expect(eleven.status).toBe(400);
    expect(eleven.json.error).toBe('invalid_client_metadata');
    expect((await from({ client_name: 'n'.repeat(100) })).status).toBe(201);
    const name = await from({ client_name: 'n'.repeat(101) });
    expect(name.status).toBe(400);
    expect(name.json.error).toBe('invalid_client_metadata');
    expect(name.json.error_description).toBe('client_name must be at most 100 characters.');
    const big = await from({ software_statement: 'x'.repeat(9000) });
    expect(big.status).toBe(400);
    expect(big.json.error).toBe('invalid_client_metadata');
    expect(String(big.json.error_description)).toMatch(/larger than 8192 bytes/);
  });

  it('stores name and redirect URIs once (columns), the answer still carries the full client', async () => {
    const res = await from({ client_name: 'Once', client_uri: 'https://once.example' });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      client_name: 'Once',
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      client_uri: 'https://once.example',
    });
    const [row] = (await app.t.db.query(
      `SELECT client_name, redirect_uris, metadata FROM oauth_clients WHERE client_id = $1`,
      [res.json.client_id],
    )) as Array<{ client_name: string; redirect_uris: string[]; metadata: object }>;
    expect(row.client_name).toBe('Once');
    expect(row.redirect_uris).toEqual([REDIRECT]);
    expect(row.metadata).toEqual({ client_uri: 'https://once.example' });
  });

  it('purges clients never used for an authorization within a day; used and young ones stay', async () => {
    const person = await createPerson(app.base, 'pro');
    const unused = (await registerClient(app.base)).json.client_id as string;
    const used = (await connect(app.base, person)).client.client_id as string;
    app.t.clock.advance(86_400_000 + 1_000);
    const young = (await registerClient(app.base)).json.client_id as string;
    const purge = new OAuthClientPurgeService(
      app.t.app.get(OAuthClientsRepository, { strict: false }),
      app.t.clock,
      app.t.config,
    );
    expect(await purge.runOnce()).toBeGreaterThanOrEqual(1);
    const ids = (
      (await app.t.db.query(`SELECT client_id FROM oauth_clients WHERE client_id = ANY($1)`, [
        [unused, used, young],
      ])) as Array<{ client_id: string }>
    ).map((r) => r.client_id);
    expect(ids.sort()).toEqual([used, young].sort());
    // Nothing of the purged client is left to authorize with.
    const again = await fetch(
      `${app.base}/oauth/authorize?client_id=${unused}&redirect_uri=${encodeURIComponent(REDIRECT)}`,
      { redirect: 'manual' },
    );
    expect(again.status).toBe(400);
  });
});
