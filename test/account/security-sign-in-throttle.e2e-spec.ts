import request from 'supertest';
import { AdminClient } from '../helpers/fixtures';
import { createTestApp, TestApp } from '../helpers/test-app';

const PASSWORD = 'a long enough password';
const unique = () => Math.random().toString(36).slice(2, 10);

/**
 * Sign-in throttling (Redis, so it holds across instances): 10 failures per email and 50 per
 * client IP within SIGN_IN_WINDOW_SECONDS. Each app here has its own Redis prefix, so the
 * IP counter (every test request comes from 127.0.0.1) is not shared with other suites.
 */
describe('Sign-in: same 401 for unknown email and wrong password; throttled per email and per IP', () => {
  let t: TestApp;
  let admin: AdminClient;

  beforeAll(async () => {
    t = await createTestApp({ env: { REDIS_PREFIX: `${process.env.REDIS_PREFIX}:throttle` } });
    admin = new AdminClient(t.url);
  });
  afterAll(() => t.close());

  async function user(base = t) {
    const acc = await admin.account('pro');
    const email = `t.${unique()}@example.com`;
    const created = await new AdminClient(base.url).post(`/accounts/${acc.id}/users`, {
      email,
      password: PASSWORD,
    });
    expect(created.status).toBe(201);
    return email;
  }
  const signIn = (email: string, password: string, base = t) =>
    request(base.url).post('/account/v1/session').send({ email, password });

  it('unknown email and wrong password get identical 401 answers, in similar time', async () => {
    const email = await user();
    const t0 = Date.now();
    const wrong = await signIn(email, 'not the right password');
    const t1 = Date.now();
    const unknown = await signIn(`nobody.${unique()}@example.com`, 'not the right password');
    const t2 = Date.now();
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    expect(wrong.body.error).toEqual(unknown.body.error);
    expect(wrong.body.error).toEqual({
      code: 'UNAUTHORIZED',
      message: 'Invalid email or password.',
    });
    // Both run the same scrypt work (no early answer for an unknown email).
    expect(t2 - t1).toBeGreaterThan((t1 - t0) / 3);
  });

  it('attempts 1-10 with a wrong password answer 401, the 11th 429 RATE_LIMITED, even with the right password', async () => {
    const email = await user();
    for (let i = 1; i <= 10; i++) {
      const res = await signIn(i % 2 ? email : email.toUpperCase(), `wrong password ${i}`);
      expect(res.status).toBe(401);
    }
    for (const password of ['wrong password 11', PASSWORD]) {
      const res = await signIn(email, password);
      expect(res.status).toBe(429);
      expect(res.body.error.code).toBe('RATE_LIMITED');
      expect(res.body.meta.retry_after).toBeGreaterThan(890);
      expect(res.body.meta.retry_after).toBeLessThanOrEqual(900);
      expect(Number(res.headers['retry-after'])).toBe(res.body.meta.retry_after);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    // Another email from the same IP is not affected.
    expect((await signIn(await user(), PASSWORD)).status).toBe(200);
  });

  it('a successful sign-in is not a failure: it does not count toward the limit', async () => {
    const email = await user();
    for (let i = 0; i < 9; i++) expect((await signIn(email, 'wrong password!')).status).toBe(401);
    for (let i = 0; i < 3; i++) expect((await signIn(email, PASSWORD)).status).toBe(200);
    expect((await signIn(email, 'wrong password!')).status).toBe(401);
    expect((await signIn(email, PASSWORD)).status).toBe(429);
  });

  it('concurrent guesses cannot overshoot: 15 at once give exactly 10 × 401 and 5 × 429; the window passes', async () => {
    const short = await createTestApp({
      env: {
        REDIS_PREFIX: `${process.env.REDIS_PREFIX}:throttle-short`,
        SIGN_IN_WINDOW_SECONDS: '12',
      },
    });
    try {
      const email = await user(short);
      const answers = await Promise.all(
        Array.from({ length: 15 }, (_, i) => signIn(email, `wrong guess ${i}`, short)),
      );
      const statuses = answers.map((r) => r.status).sort();
      expect(statuses).toEqual([...Array(10).fill(401), ...Array(5).fill(429)]);
      const blocked = await signIn(email, PASSWORD, short);
      expect(blocked.status).toBe(429);
      const wait = blocked.body.meta.retry_after as number;
      expect(wait).toBeGreaterThanOrEqual(1);
      expect(wait).toBeLessThanOrEqual(12);
      await new Promise((r) => setTimeout(r, wait * 1000 + 300));
      expect((await signIn(email, PASSWORD, short)).status).toBe(200);
    } finally {
      await short.close();
    }
  });

  it('per client IP: 50 failures (any emails) within the window, then 429 for every email', async () => {
    const ipApp = await createTestApp({
      env: { REDIS_PREFIX: `${process.env.REDIS_PREFIX}:throttle-ip` },
    });
    try {
      const known = await user(ipApp);
      for (let batch = 0; batch < 5; batch++) {
        const answers = await Promise.all(
          Array.from({ length: 10 }, () =>
            signIn(`nobody.${unique()}@example.com`, 'some wrong password', ipApp),
          ),
        );
        expect(answers.map((r) => r.status)).toEqual(Array(10).fill(401));
      }
      for (const [email, password] of [
        [`nobody.${unique()}@example.com`, 'some wrong password'],
        [known, PASSWORD],
      ]) {
        const res = await signIn(email, password, ipApp);
        expect(res.status).toBe(429);
        expect(res.body.error.code).toBe('RATE_LIMITED');
        expect(res.body.meta.retry_after).toBeGreaterThan(0);
        expect(res.headers['retry-after']).toBeDefined();
      }
    } finally {
      await ipApp.close();
    }
  });
});
