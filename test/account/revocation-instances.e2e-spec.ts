import { Client } from 'pg';
import request from 'supertest';
import { AdminClient, bearer, TestAccount } from '../helpers/fixtures';
import { signIn } from '../helpers/account-session';
import { freePort, Spawned, spawnDist, waitForHttp } from '../helpers/processes';

/** The key cache lives this long in both processes: only the invalidation can be faster. */
const KEY_CACHE_TTL_MS = 5000;
/** The contract's promise: a revocation or plan change takes effect everywhere within 1 s. */
const WITHIN_MS = 1000;

interface Instance {
  url: string;
  proc: Spawned;
}

async function startApi(): Promise<Instance> {
  const port = await freePort();
  const proc = spawnDist('apps/api/src/main.js', {
    PORT: String(port),
    KEY_CACHE_TTL_MS: String(KEY_CACHE_TTL_MS),
    LOG_LEVEL: 'silent',
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/health/live`);
  return { url, proc };
}

async function stopApi(i: Instance | undefined): Promise<void> {
  if (!i) return;
  i.proc.child.kill('SIGTERM');
  await i.proc.exited;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Status of GET /api/v1/usage with this key on that instance. */
async function statusOn(i: Instance, key: string): Promise<number> {
  return (await request(i.url).get('/api/v1/usage').set(bearer(key))).status;
}

/** Polls until the instance's answer for the key passes `done`; the time it took (ms), or Infinity. */
async function msUntilAnswer(
  i: Instance,
  key: string,
  done: (res: request.Response) => boolean,
  from: number,
): Promise<number> {
  while (Date.now() - from < KEY_CACHE_TTL_MS + 1000) {
    if (done(await request(i.url).get('/api/v1/usage').set(bearer(key)))) return Date.now() - from;
    await sleep(20);
  }
  return Infinity;
}

/** Polls until the instance answers `status` for the key; the time it took (ms), or Infinity. */
function msUntil(i: Instance, key: string, status: number, from: number): Promise<number> {
  return msUntilAnswer(i, key, (res) => res.status === status, from);
}

/**
 * Two compiled API processes sharing PostgreSQL and Redis, each with a 5-second key cache:
 * a revocation (admin or account API) or a plan change made through one is seen by the other
 * within 1 second, because it is pushed over Redis pub/sub. Each test also changes a control
 * key or account directly in PostgreSQL (nothing published): the other instance keeps serving
 * it from its warm cache past the 1-second fallback TTL, which shows the caches were warm and
 * the subscription live, so only the invalidation explains the fast result.
 */
describe('Revocation and plan changes reach every API instance within 1 second', () => {
  let a: Instance;
  let b: Instance;
  let admin: AdminClient;
  let db: Client;

  beforeAll(async () => {
    [a, b] = await Promise.all([startApi(), startApi()]);
    admin = new AdminClient(a.url);
    db = new Client({ connectionString: process.env.DATABASE_URL });
    await db.connect();
    await sleep(300); // subscriptions confirmed (they take milliseconds)
  });
  afterAll(async () => {
    await db?.end();
    await Promise.all([stopApi(a), stopApi(b)]);
  });

  /** Both instances have served the key (their caches hold it). */
  async function warm(...keys: string[]): Promise<number> {
    for (const key of keys) {
      expect(await statusOn(a, key)).toBe(200);
      expect(await statusOn(b, key)).toBe(200);
    }
    return Date.now();
  }

  /** The control: still served from B's cache well past the fallback TTL. */
  async function expectStillCachedOnB(key: string, warmedAt: number, status = 200) {
    const wait = warmedAt + 1500 - Date.now();
    if (wait > 0) await sleep(wait);
    expect(Date.now() - warmedAt).toBeLessThan(KEY_CACHE_TTL_MS - 500);
    expect(await statusOn(b, key)).toBe(status);
  }

  async function secondKey(acc: TestAccount, label: string): Promise<{ id: number; key: string }> {
    const res = await admin.post(`/accounts/${acc.id}/api-keys`, { label });
    expect(res.status).toBe(201);
    return { id: res.body.data.id, key: res.body.data.key };
  }

  it('a key revoked through the admin API on one instance gets 401 on the other within 1 s', async () => {
    const acc = await admin.account('pro');
    const control = await secondKey(acc, 'control');
    const warmedAt = await warm(acc.key, control.key);

    await db.query(`UPDATE api_keys SET revoked_at = now() WHERE id = $1`, [control.id]);
    const revokedAt = Date.now();
    const res = await request(a.url)
      .delete(`/admin/v1/api-keys/${acc.keyId}`)
      .set(bearer(process.env.ADMIN_TOKEN!));
    expect(res.status).toBe(200);

    expect(await msUntil(b, acc.key, 401, revokedAt)).toBeLessThan(WITHIN_MS);
    expect(await statusOn(a, acc.key)).toBe(401);
    await expectStillCachedOnB(control.key, warmedAt);
  });

  it('a key revoked in the account area on one instance gets 401 on the other within 1 s', async () => {
    const acc = await admin.account('agency');
    const me = await signIn(a.url, acc.id);
    const created = await me.post('/api-keys', { label: 'console key' });
    expect(created.status).toBe(201);
    const key = created.body.data.key as string;
    const control = await secondKey(acc, 'control');
    const warmedAt = await warm(key, control.key);

    await db.query(`UPDATE api_keys SET revoked_at = now() WHERE id = $1`, [control.id]);
    const revokedAt = Date.now();
    expect((await me.delete(`/api-keys/${created.body.data.id}`)).status).toBe(200);

    expect(await msUntil(b, key, 401, revokedAt)).toBeLessThan(WITHIN_MS);
    await expectStillCachedOnB(control.key, warmedAt);
  });

  it('a plan change to starter on one instance gets 403 on the other within 1 s (and back to pro: 200)', async () => {
    const acc = await admin.account('pro');
    const controlAcc = await admin.account('pro');
    const warmedAt = await warm(acc.key, controlAcc.key);

    await db.query(`UPDATE accounts SET plan = 'starter' WHERE id = $1`, [controlAcc.id]);
    const changedAt = Date.now();
    expect((await admin.patch(`/accounts/${acc.id}`, { plan: 'starter' })).status).toBe(200);

    expect(await msUntil(b, acc.key, 403, changedAt)).toBeLessThan(WITHIN_MS);
    expect(await statusOn(a, acc.key)).toBe(403);
    await expectStillCachedOnB(controlAcc.key, warmedAt);

    const upgradedAt = Date.now();
    expect((await admin.patch(`/accounts/${acc.id}`, { plan: 'pro' })).status).toBe(200);
    expect(await msUntil(b, acc.key, 200, upgradedAt)).toBeLessThan(WITHIN_MS);
  });

  it('an override change is pushed too: the other instance applies the new allowance within 1 s', async () => {
    // Every poll is a counted call: an allowance far above what 6 s of polling can use.
    const acc = await admin.account('pro', { api_calls_per_month: 1000 });
    await warm(acc.key);
    const changedAt = Date.now();
    const patched = await admin.patch(`/accounts/${acc.id}`, {
      overrides: { api_calls_per_month: 2000 },
    });
    expect(patched.status).toBe(200);
    const seen = await msUntilAnswer(
      b,
      acc.key,
      (res) => res.status === 200 && res.body.data.api_calls_limit === 2000,
      changedAt,
    );
    expect(seen).toBeLessThan(WITHIN_MS);
  });
});
