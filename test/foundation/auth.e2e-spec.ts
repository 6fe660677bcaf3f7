import type { Response } from 'supertest';
import { AdminClient, bearer, TestAccount } from '../helpers/fixtures';
import { createTestApp, TestApp } from '../helpers/test-app';
import * as keySecrets from '../../libs/accounts/src/api-key-secret';

describe('Authentication and plan access (spec: Authentication; errors 401, 403)', () => {
  let t: TestApp;
  let admin: AdminClient;
  let pro: TestAccount;

  beforeAll(async () => {
    t = await createTestApp();
    admin = new AdminClient(t.url);
    pro = await admin.account('pro');
  });
  afterAll(() => t.close());

  const expectError = (res: Response, status: number, code: string) => {
    expect(res.status).toBe(status);
    expect(res.body.success).toBe(false);
    expect(res.body.error.code).toBe(code);
    expect(typeof res.body.error.message).toBe('string');
    expect(res.body.data).toBeUndefined();
    expect(res.body.meta.timestamp).toEqual(expect.any(String));
  };

  it('accepts the key as a Bearer header', async () => {
    const res = await t.http().get('/api/v1/usage').set(bearer(pro.key));
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
  });

  it('hashes the key once per request, on a key-cache miss as on a hit', async () => {
    const fresh = await admin.account('pro');
    const hashes = jest.spyOn(keySecrets, 'hashSecret');
    try {
      const miss = await t.http().get('/api/v1/usage').set(bearer(fresh.key));
      expect(miss.status).toBe(200);
      expect(hashes).toHaveBeenCalledTimes(1);
      const hit = await t.http().get('/api/v1/usage').set(bearer(fresh.key));
      expect(hit.status).toBe(200);
      expect(hashes).toHaveBeenCalledTimes(2);
    } finally {
      hashes.mockRestore();
    }
  });

  it('accepts the key as the api_key query parameter', async () => {
    const res = await t.http().get(`/api/v1/usage?api_key=${pro.key}`);
    expect(res.status).toBe(200);
  });

  it('401 UNAUTHORIZED when the key is missing', async () => {
    expectError(await t.http().get('/api/v1/usage'), 401, 'UNAUTHORIZED');
  });

  it.each([
    ['an unknown well-formed key', `seo_live_${'A'.repeat(43)}`],
    ['garbage', 'not-a-key'],
    ['an over-long value', 'x'.repeat(5000)],
    ['SQL', "' OR 1=1 --"],
  ])('401 UNAUTHORIZED for %s (header and query)', async (_what, key) => {
    expectError(await t.http().get('/api/v1/usage').set(bearer(key)), 401, 'UNAUTHORIZED');
    expectError(
      await t.http().get(`/api/v1/usage?api_key=${encodeURIComponent(key)}`),
      401,
      'UNAUTHORIZED',
    );
  });

  it('401 for a non-Bearer Authorization scheme, even with a valid key', async () => {
    const res = await t.http().get('/api/v1/usage').set('Authorization', `Basic ${pro.key}`);
    expectError(res, 401, 'UNAUTHORIZED');
  });

  it('401 for a repeated api_key parameter', async () => {
    expectError(
      await t.http().get(`/api/v1/usage?api_key=${pro.key}&api_key=${pro.key}`),
      401,
      'UNAUTHORIZED',
    );
  });

  it('401 once the key is revoked (header and query)', async () => {
    const acc = await admin.account('pro');
    expect((await t.http().get('/api/v1/usage').set(bearer(acc.key))).status).toBe(200);
    const revoked = await admin.delete(`/api-keys/${acc.keyId}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.data.revoked_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expectError(await t.http().get('/api/v1/usage').set(bearer(acc.key)), 401, 'UNAUTHORIZED');
    expectError(await t.http().get(`/api/v1/usage?api_key=${acc.key}`), 401, 'UNAUTHORIZED');
  });

  it('a revocation reaches another API instance within its key-cache period', async () => {
    const other = await createTestApp({ env: { KEY_CACHE_TTL_MS: '300' } });
    try {
      const acc = await admin.account('pro');
      expect((await other.http().get('/api/v1/usage').set(bearer(acc.key))).status).toBe(200);
      await admin.delete(`/api-keys/${acc.keyId}`); // revoked through the first instance
      await new Promise((r) => setTimeout(r, 400));
      expectError(
        await other.http().get('/api/v1/usage').set(bearer(acc.key)),
        401,
        'UNAUTHORIZED',
      );
    } finally {
      await other.close();
    }
  });

  it.each(['free', 'starter'] as const)('403 FORBIDDEN for the %s plan', async (plan) => {
    const acc = await admin.account(plan);
    expectError(await t.http().get('/api/v1/usage').set(bearer(acc.key)), 403, 'FORBIDDEN');
  });

  it('a plan change takes effect (downgrade → 403, upgrade → 200)', async () => {
    const other = await createTestApp({ env: { KEY_CACHE_TTL_MS: '0' } });
    try {
      const acc = await admin.account('agency');
      expect((await other.http().get('/api/v1/usage').set(bearer(acc.key))).status).toBe(200);
      await admin.patch(`/accounts/${acc.id}`, { plan: 'starter' });
      expectError(await other.http().get('/api/v1/usage').set(bearer(acc.key)), 403, 'FORBIDDEN');
      await admin.patch(`/accounts/${acc.id}`, { plan: 'pro' });
      expect((await other.http().get('/api/v1/usage').set(bearer(acc.key))).status).toBe(200);
    } finally {
      await other.close();
    }
  });

  it('401 comes before 403, and neither is metered', async () => {
    const acc = await admin.account('free');
    await t.http().get('/api/v1/usage').set(bearer(acc.key));
    const read = await admin.get(`/accounts/${acc.id}`);
    expect(read.body.data.usage.api_calls_per_month).toBe(0);
  });
});
