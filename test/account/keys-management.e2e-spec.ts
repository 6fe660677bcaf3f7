import type { Response } from 'supertest';
import { AdminClient, bearer, Plan } from '../helpers/fixtures';
import { signIn, SignedInUser } from '../helpers/account-session';
import { createTestApp, TestApp } from '../helpers/test-app';

const RECORD_TS = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const KEY = /^seo_live_[0-9A-Za-z]{49}$/; // docs/api-keys.md: 43 random + 6 checksum

/** Contract: docs/api.md, "Account area": GET/POST /account/v1/api-keys and DELETE …/:id. */
describe('Account area: key management (/account/v1/api-keys)', () => {
  let t: TestApp;
  let admin: AdminClient;

  beforeAll(async () => {
    t = await createTestApp();
    admin = new AdminClient(t.url);
  });
  afterAll(() => t.close());

  const expectError = (res: Response, status: number, code: string) => {
    expect(res.status).toBe(status);
    expect(res.body.success).toBe(false);
    expect(res.body.error.code).toBe(code);
    expect(typeof res.body.error.message).toBe('string');
  };

  /** A new account (no key) with a signed-in user. */
  async function person(plan: Plan = 'pro'): Promise<SignedInUser> {
    const created = await admin.post('/accounts', { name: `keys ${plan}`, plan });
    expect(created.status).toBe(201);
    return signIn(t.url, created.body.data.id);
  }

  async function adminKeys(accountId: number) {
    const res = await admin.get(`/accounts/${accountId}/api-keys`);
    expect(res.status).toBe(200);
    return res.body.data.keys as Array<{ id: number; label: string; revoked_at: string | null }>;
  }

  it('401 UNAUTHORIZED on every key route without a session (nothing created)', async () => {
    expectError(await t.http().get('/account/v1/api-keys'), 401, 'UNAUTHORIZED');
    expectError(
      await t.http().post('/account/v1/api-keys').send({ label: 'x' }),
      401,
      'UNAUTHORIZED',
    );
    expectError(await t.http().delete('/account/v1/api-keys/1'), 401, 'UNAUTHORIZED');
    expectError(
      await t.http().get('/account/v1/api-keys').set('Cookie', 'seo_session=not-a-session'),
      401,
      'UNAUTHORIZED',
    );
  });

  it('creates a key (201, secret shown once), lists keys newest first without secrets', async () => {
    const me = await person('pro');
    const empty = await me.get('/api-keys');
    expect(empty.status).toBe(200);
    expect(empty.body.success).toBe(true);
    expect(empty.body.data).toEqual([]);

    const first = await me.post('/api-keys', { label: '  laptop script  ' });
    expect(first.status).toBe(201);
    expect(Object.keys(first.body.data).sort()).toEqual(
      ['created_at', 'id', 'key', 'label', 'prefix'].sort(),
    );
    expect(first.body.data.label).toBe('laptop script');
    expect(first.body.data.key).toMatch(KEY);
    expect(first.body.data.prefix).toBe(first.body.data.key.slice(0, 13));
    expect(first.body.data.created_at).toMatch(RECORD_TS);
    const second = await me.post('/api-keys', { label: 'dashboard' });
    expect(second.status).toBe(201);

    const list = await me.get('/api-keys');
    expect(list.status).toBe(200);
    const keys = list.body.data as Array<Record<string, unknown>>;
    expect(keys.map((k) => k.id)).toEqual([second.body.data.id, first.body.data.id]);
    for (const k of keys) {
      expect(Object.keys(k).sort()).toEqual(
        ['created_at', 'id', 'label', 'last_used_at', 'prefix', 'revoked_at'].sort(),
      );
      expect(k.revoked_at).toBeNull();
    }
    expect(keys[1]).toMatchObject({
      label: 'laptop script',
      prefix: first.body.data.prefix,
      created_at: first.body.data.created_at,
      last_used_at: null,
    });
    // The secret (or anything long enough to be it) never appears again.
    expect(JSON.stringify(list.body)).not.toContain(first.body.data.key.slice(13));
    expect(JSON.stringify(list.body)).not.toMatch(/seo_live_[A-Za-z0-9_-]{20,}/);
  });

  it('a key created in the account area works on /api/v1 with its label as meta.key_name, and shows its last use', async () => {
    const me = await person('agency');
    const created = await me.post('/api-keys', { label: 'Console key' });
    expect(created.status).toBe(201);
    const usage = await t.http().get('/api/v1/usage').set(bearer(created.body.data.key));
    expect(usage.status).toBe(200);
    expect(usage.body.meta.key_name).toBe('Console key');
    expect(usage.body.data.plan).toBe('agency');
    // last_used_at is written asynchronously after the lookup.
    let lastUsed: unknown = null;
    for (let i = 0; i < 40 && !lastUsed; i++) {
      const list = await me.get('/api-keys');
      lastUsed = list.body.data[0].last_used_at;
      if (!lastUsed) await new Promise((r) => setTimeout(r, 50));
    }
    expect(lastUsed).toMatch(RECORD_TS);
  });

  it('keys made by operators and in the account area are the same keys', async () => {
    const me = await person('pro');
    const byOperator = await admin.post(`/accounts/${me.accountId}/api-keys`, { label: 'ops' });
    expect(byOperator.status).toBe(201);
    const byPerson = await me.post('/api-keys', { label: 'mine' });
    expect(byPerson.status).toBe(201);
    const mine = (await me.get('/api-keys')).body.data as Array<{ id: number }>;
    expect(mine.map((k) => k.id)).toEqual([byPerson.body.data.id, byOperator.body.data.id]);
    const theirs = await adminKeys(me.accountId);
    expect(theirs.map((k) => k.id)).toEqual([byOperator.body.data.id, byPerson.body.data.id]);
    // The person can revoke the operator's key, the operator the person's.
    expect((await me.delete(`/api-keys/${byOperator.body.data.id}`)).status).toBe(200);
    expect((await admin.delete(`/api-keys/${byPerson.body.data.id}`)).status).toBe(200);
    const after = (await me.get('/api-keys')).body.data as Array<{ revoked_at: string }>;
    expect(after.every((k) => RECORD_TS.test(k.revoked_at))).toBe(true);
  });

  it('revokes a key (idempotent): the answer is the revoked key, and the key gets 401 on /api/v1', async () => {
    const me = await person('pro');
    const created = await me.post('/api-keys', { label: 'to revoke' });
    const key = created.body.data.key as string;
    expect((await t.http().get('/api/v1/usage').set(bearer(key))).status).toBe(200);

    const revoked = await me.delete(`/api-keys/${created.body.data.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.success).toBe(true);
    expect(Object.keys(revoked.body.data).sort()).toEqual(
      ['created_at', 'id', 'label', 'last_used_at', 'prefix', 'revoked_at'].sort(),
    );
    expect(revoked.body.data).toMatchObject({ id: created.body.data.id, label: 'to revoke' });
    expect(revoked.body.data.revoked_at).toMatch(RECORD_TS);
    expect(JSON.stringify(revoked.body)).not.toContain(key);

    expectError(await t.http().get('/api/v1/usage').set(bearer(key)), 401, 'UNAUTHORIZED');
    expectError(await t.http().get(`/api/v1/usage?api_key=${key}`), 401, 'UNAUTHORIZED');

    const again = await me.delete(`/api-keys/${created.body.data.id}`);
    expect(again.status).toBe(200);
    expect(again.body.data.revoked_at).toBe(revoked.body.data.revoked_at);
    const list = await me.get('/api-keys');
    expect(list.body.data[0].revoked_at).toBe(revoked.body.data.revoked_at);
  });

  it.each([
    ['missing', {}],
    ['empty', { label: '' }],
    ['empty after trimming', { label: '   \t ' }],
    ['101 characters', { label: 'k'.repeat(101) }],
    ['101 characters after trimming', { label: ` ${'k'.repeat(101)} ` }],
    ['a number', { label: 42 }],
    ['null', { label: null }],
    ['an array', { label: ['a'] }],
    ['an object', { label: { text: 'a' } }],
  ])('422 VALIDATION_ERROR when the label is %s, and nothing is created', async (_, body) => {
    const me = await person('pro');
    const res = await me.post('/api-keys', body);
    expectError(res, 422, 'VALIDATION_ERROR');
    expect(JSON.stringify(res.body.error)).toContain('label');
    expect(await adminKeys(me.accountId)).toEqual([]);
  });

  it('accepts a label of exactly 100 characters (after trimming)', async () => {
    const me = await person('pro');
    const res = await me.post('/api-keys', { label: `  ${'k'.repeat(100)}  ` });
    expect(res.status).toBe(201);
    expect(res.body.data.label).toBe('k'.repeat(100));
  });

  it('415 for a body that is not JSON (nothing created)', async () => {
    const me = await person('pro');
    const res = await t
      .http()
      .post('/account/v1/api-keys')
      .set('Cookie', me.cookie)
      .type('form')
      .send('label=form');
    expect(res.status).toBe(415);
    expect(await adminKeys(me.accountId)).toEqual([]);
  });

  it.each(['free', 'starter'] as const)(
    '403 FORBIDDEN on the %s plan (the message names Pro or Agency), nothing created; listing still works',
    async (plan) => {
      const me = await person(plan);
      const res = await me.post('/api-keys', { label: 'not allowed' });
      expectError(res, 403, 'FORBIDDEN');
      expect(res.body.error.message).toMatch(/Pro or Agency/);
      expect(await adminKeys(me.accountId)).toEqual([]);
      const list = await me.get('/api-keys');
      expect(list.status).toBe(200);
      expect(list.body.data).toEqual([]);
    },
  );

  it('a downgraded account can still revoke its keys', async () => {
    const me = await person('pro');
    const created = await me.post('/api-keys', { label: 'before downgrade' });
    await admin.patch(`/accounts/${me.accountId}`, { plan: 'starter' });
    expectError(await me.post('/api-keys', { label: 'after' }), 403, 'FORBIDDEN');
    const revoked = await me.delete(`/api-keys/${created.body.data.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.data.revoked_at).toMatch(RECORD_TS);
  });

  it('at most 25 active keys whoever created them: the 26th is 422; revoking one makes room', async () => {
    const me = await person('pro');
    for (let i = 0; i < 20; i++) {
      expect(
        (await admin.post(`/accounts/${me.accountId}/api-keys`, { label: `ops ${i}` })).status,
      ).toBe(201);
    }
    const mine: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await me.post('/api-keys', { label: `mine ${i}` });
      expect(res.status).toBe(201);
      mine.push(res.body.data.id);
    }
    const refused = await me.post('/api-keys', { label: 'one too many' });
    expectError(refused, 422, 'VALIDATION_ERROR');
    expect(refused.body.error.message).toMatch(/25/);
    expect(await adminKeys(me.accountId)).toHaveLength(25);

    expect((await me.delete(`/api-keys/${mine[0]}`)).status).toBe(200);
    const room = await me.post('/api-keys', { label: 'after revoking one' });
    expect(room.status).toBe(201);
    expectError(await me.post('/api-keys', { label: 'full again' }), 422, 'VALIDATION_ERROR');
    const keys = await adminKeys(me.accountId);
    expect(keys).toHaveLength(26);
    expect(keys.filter((k) => k.revoked_at === null)).toHaveLength(25);
  });

  it('the cap is exact under concurrency: 40 parallel creates with 24 active end with exactly 25', async () => {
    const me = await person('agency');
    for (let i = 0; i < 24; i++) {
      expect((await me.post('/api-keys', { label: `k${i}` })).status).toBe(201);
    }
    const race = async (round: number) => {
      const results = await Promise.all(
        Array.from({ length: 40 }, (_, i) => me.post('/api-keys', { label: `race ${round}.${i}` })),
      );
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s === 201)).toHaveLength(1);
      expect(statuses.filter((s) => s === 422)).toHaveLength(39);
      const keys = await adminKeys(me.accountId);
      expect(keys.filter((k) => k.revoked_at === null)).toHaveLength(25);
      return keys;
    };
    expect(await race(1)).toHaveLength(25);
    // Again with one revoked (revoked keys do not count): still exactly one more.
    const oldest = (await adminKeys(me.accountId))[0];
    expect((await me.delete(`/api-keys/${oldest.id}`)).status).toBe(200);
    expect(await race(2)).toHaveLength(26);
  });

  it("another account's key, an unknown id or a non-numeric id → 404 NOT_FOUND, and the key keeps working", async () => {
    const me = await person('pro');
    const other = await admin.account('pro');
    const res = await me.delete(`/api-keys/${other.keyId}`);
    expectError(res, 404, 'NOT_FOUND');
    expect((await t.http().get('/api/v1/usage').set(bearer(other.key))).status).toBe(200);
    const theirs = await adminKeys(other.id);
    expect(theirs[0].revoked_at).toBeNull();
    // Not in the list either.
    expect((await me.get('/api-keys')).body.data).toEqual([]);

    for (const id of ['abc', '1.5', '-1', '0', '99999999999', '2147483647']) {
      expectError(await me.delete(`/api-keys/${id}`), 404, 'NOT_FOUND');
    }
  });

  it('key management is not metered: the account’s call meter does not move', async () => {
    const me = await person('pro');
    await me.get('/api-keys');
    const created = await me.post('/api-keys', { label: 'meter' });
    await me.delete(`/api-keys/${created.body.data.id}`);
    const read = await admin.get(`/accounts/${me.accountId}`);
    expect(read.body.data.usage.api_calls_per_month).toBe(0);
  });
});
