import request from 'supertest';
import type Redis from 'ioredis';
import { ADMIN_AUTH_FAILURES_PER_IP, AdminAuthThrottle, REDIS } from '@app/redis';
import { AdminClient } from '../helpers/fixtures';
import { ADMIN_TOKEN, createTestApp, TestApp } from '../helpers/test-app';

const WINDOW_SECONDS = 2;
const LOCAL_IP = '127.0.0.1';

describe('Admin authentication throttle (issue 13, item 7)', () => {
  let t: TestApp;
  let admin: AdminClient;
  let throttle: AdminAuthThrottle;
  let redis: Redis;
  let accountId: number;

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        REDIS_PREFIX: `${process.env.REDIS_PREFIX}:admin-throttle`,
        ADMIN_AUTH_WINDOW_SECONDS: String(WINDOW_SECONDS),
      },
    });
    admin = new AdminClient(t.url);
    throttle = t.app.get(AdminAuthThrottle);
    redis = t.app.get<Redis>(REDIS);
    await redis.del(throttle.keyOf(LOCAL_IP));
    accountId = (await admin.account('pro')).id;
  });
  afterAll(() => t.close());
  beforeEach(() => redis.del(throttle.keyOf(LOCAL_IP)));

  const get = (auth?: string) => {
    const req = request(t.url).get(`/admin/v1/accounts/${accountId}`);
    return auth ? req.set('Authorization', auth) : req;
  };

  it('20 failures answer 401 each; the 21st, and the right token, 429 with retry_after until the window ends', async () => {
    for (let i = 1; i <= ADMIN_AUTH_FAILURES_PER_IP; i++) {
      const res = await get(i % 2 ? 'Bearer wrong-token-wrong-token' : undefined);
      expect([i, res.status, res.body.error?.code]).toEqual([i, 401, 'UNAUTHORIZED']);
    }
    for (const auth of ['Bearer wrong-token-wrong-token', `Bearer ${ADMIN_TOKEN()}`]) {
      const res = await get(auth);
      expect(res.status).toBe(429);
      expect(res.body.error.code).toBe('RATE_LIMITED');
      const wait = res.body.meta.retry_after;
      expect(wait).toBeGreaterThanOrEqual(1);
      expect(wait).toBeLessThanOrEqual(WINDOW_SECONDS);
      expect(res.headers['retry-after']).toBe(String(wait));
    }
    // Refused attempts are not counted: the window ends on time.
    expect(Number(await redis.get(throttle.keyOf(LOCAL_IP)))).toBe(ADMIN_AUTH_FAILURES_PER_IP);

    // Other addresses are unaffected (their own counter; the key is per client IP).
    const other = '203.0.113.9';
    await redis.del(throttle.keyOf(other));
    expect(await throttle.check(other, false)).toEqual({ allowed: true });
    expect(await throttle.check(other, true)).toEqual({ allowed: true });
    expect(await redis.get(throttle.keyOf(other))).toBe('1');
    await redis.del(throttle.keyOf(other));

    // After the window the right token works again.
    const pttl = await redis.pttl(throttle.keyOf(LOCAL_IP));
    await new Promise((r) => setTimeout(r, Math.max(0, pttl) + 100));
    const ok = await get(`Bearer ${ADMIN_TOKEN()}`);
    expect(ok.status).toBe(200);
    expect(ok.body.data.id).toBe(accountId);
  });

  it('successes are not counted, and concurrent guesses cannot overshoot the limit', async () => {
    for (let i = 0; i < 5; i++) expect((await get(`Bearer ${ADMIN_TOKEN()}`)).status).toBe(200);
    expect(await redis.get(throttle.keyOf(LOCAL_IP))).toBeNull();

    const statuses = (
      await Promise.all(
        Array.from({ length: ADMIN_AUTH_FAILURES_PER_IP + 10 }, () =>
          get('Bearer wrong-token-wrong-token'),
        ),
      )
    ).map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(ADMIN_AUTH_FAILURES_PER_IP);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
  });

  it('the public OpenAPI document lists no admin path', async () => {
    const res = await t.http().get('/docs/openapi.json');
    expect(res.status).toBe(200);
    const paths = Object.keys(res.body.paths);
    expect(paths.filter((p) => p.startsWith('/admin'))).toEqual([]);
    expect(paths).toEqual(expect.arrayContaining(['/api/v1/usage', '/api/v1/rank/keywords']));
  });
});

describe('Client address behind a proxy (TRUST_PROXY)', () => {
  const spoofed = ['198.51.100.1', '198.51.100.2'];
  const guess = (t: TestApp, forwardedFor: string) =>
    request(t.url)
      .get('/admin/v1/accounts/1')
      .set('Authorization', 'Bearer wrong-token-wrong-token')
      .set('X-Forwarded-For', forwardedFor);

  async function withApp(env: Record<string, string>, body: (t: TestApp) => Promise<void>) {
    const t = await createTestApp({
      env: { REDIS_PREFIX: `${process.env.REDIS_PREFIX}:trust-proxy:${Date.now()}`, ...env },
    });
    try {
      await body(t);
    } finally {
      await t.close();
    }
  }

  it('unset: X-Forwarded-For is ignored, so a client cannot pick a fresh address per guess', () =>
    withApp({}, async (t) => {
      const throttle = t.app.get(AdminAuthThrottle);
      const redis = t.app.get<Redis>(REDIS);
      for (const ip of spoofed) expect((await guess(t, ip)).status).toBe(401);
      expect(await redis.get(throttle.keyOf(LOCAL_IP))).toBe('2');
      for (const ip of spoofed) expect(await redis.get(throttle.keyOf(ip))).toBeNull();
    }));

  it('TRUST_PROXY=loopback: the address the proxy forwarded is the one throttled', () =>
    withApp({ TRUST_PROXY: 'loopback' }, async (t) => {
      const throttle = t.app.get(AdminAuthThrottle);
      const redis = t.app.get<Redis>(REDIS);
      for (const ip of spoofed) expect((await guess(t, ip)).status).toBe(401);
      for (const ip of spoofed) expect(await redis.get(throttle.keyOf(ip))).toBe('1');
      expect(await redis.get(throttle.keyOf(LOCAL_IP))).toBeNull();
    }));
});
