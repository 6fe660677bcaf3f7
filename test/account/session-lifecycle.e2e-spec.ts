import request from 'supertest';
import { AdminClient } from '../helpers/fixtures';
import { createTestApp, TestApp } from '../helpers/test-app';

const PASSWORD = 'a long enough password';
const HOUR = 3_600_000;
const unique = () => Math.random().toString(36).slice(2, 10);

function setCookie(res: request.Response): string {
  const cookies = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
  const found = cookies.find((c) => c.startsWith('seo_session='));
  if (!found) throw new Error(`no session cookie: ${res.status} ${JSON.stringify(res.body)}`);
  return found;
}
const cookieOf = (res: request.Response) => setCookie(res).split(';')[0];

describe('Sessions: sign-in, me, sign-out, expiry, password change (/account/v1)', () => {
  let t: TestApp;
  let admin: AdminClient;

  beforeAll(async () => {
    t = await createTestApp({ env: { REDIS_PREFIX: `${process.env.REDIS_PREFIX}:sessions` } });
    admin = new AdminClient(t.url);
  });
  afterAll(() => t.close());

  async function user(plan: 'pro' | 'free' = 'pro') {
    const acc = await admin.account(plan);
    const email = `Person.${unique()}@Example.com`;
    const created = await admin.post(`/accounts/${acc.id}/users`, { email, password: PASSWORD });
    expect(created.status).toBe(201);
    return { accountId: acc.id, userId: created.body.data.id as number, email };
  }
  const signIn = (email: string, password = PASSWORD) =>
    request(t.url).post('/account/v1/session').send({ email, password });
  const me = (cookie?: string) => {
    const r = request(t.url).get('/account/v1/me');
    return cookie ? r.set('Cookie', cookie) : r;
  };

  it('signs in: 200 {user, account} and an HttpOnly, SameSite=Lax, Path=/ cookie (no Secure over http)', async () => {
    const u = await user();
    const res = await signIn(u.email);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      user: { id: u.userId, email: u.email },
      account: { id: u.accountId, name: expect.any(String), plan: 'pro' },
    });
    const cookie = setCookie(res);
    expect(cookie).toMatch(/^seo_session=[A-Za-z0-9_-]{43};/);
    const attrs = cookie.split(';').map((a) => a.trim().toLowerCase());
    expect(attrs).toEqual(expect.arrayContaining(['httponly', 'samesite=lax', 'path=/']));
    expect(attrs).not.toContain('secure');
    expect(JSON.stringify(res.body)).not.toContain(cookie.split(';')[0].slice(12));
  });

  it('the email matches in any case and surrounding spaces', async () => {
    const u = await user();
    expect((await signIn(`  ${u.email.toUpperCase()} `)).status).toBe(200);
  });

  it('GET /me answers the signed-in person; without a valid session 401 UNAUTHORIZED', async () => {
    const u = await user();
    const cookie = cookieOf(await signIn(u.email));
    const res = await me(cookie);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      user: { id: u.userId, email: u.email },
      account: { id: u.accountId, name: expect.any(String), plan: 'pro' },
    });
    for (const bad of [
      undefined,
      'seo_session=',
      'seo_session=not-a-token',
      `seo_session=${'A'.repeat(43)}`,
      `other=${cookie.slice(12)}`,
    ]) {
      const r = await me(bad);
      expect(r.status).toBe(401);
      expect(r.body.error.code).toBe('UNAUTHORIZED');
    }
    // An API key is not a session.
    const acc = await admin.account('pro');
    const withKey = await request(t.url)
      .get('/account/v1/me')
      .set('Authorization', `Bearer ${acc.key}`);
    expect(withKey.status).toBe(401);
  });

  it('every route but POST /session needs a session', async () => {
    for (const [method, path] of [
      ['delete', '/account/v1/session'],
      ['get', '/account/v1/me'],
      ['post', '/account/v1/password'],
    ] as const) {
      const res = await request(t.url)[method](path).send({});
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('UNAUTHORIZED');
    }
  });

  it('sign-in input: wrong types 422, a non-JSON body 415', async () => {
    for (const body of [{}, { email: 1, password: PASSWORD }, { email: 'a@b.c', password: 5 }]) {
      const res = await request(t.url).post('/account/v1/session').send(body);
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
    const u = await user();
    for (const [type, body] of [
      [
        'application/x-www-form-urlencoded',
        `email=${encodeURIComponent(u.email)}&password=${encodeURIComponent(PASSWORD)}`,
      ],
      ['text/plain', JSON.stringify({ email: u.email, password: PASSWORD })],
    ]) {
      const res = await request(t.url)
        .post('/account/v1/session')
        .set('Content-Type', type)
        .send(body);
      expect(res.status).toBe(415);
      expect(res.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
      expect(res.headers['set-cookie']).toBeUndefined();
    }
  });

  it('sign-out ends the session everywhere and clears the cookie; other sessions go on', async () => {
    const u = await user();
    const a = cookieOf(await signIn(u.email));
    const b = cookieOf(await signIn(u.email));
    const out = await request(t.url).delete('/account/v1/session').set('Cookie', a);
    expect(out.status).toBe(200);
    expect(out.body.data).toEqual({ signed_out: true });
    expect(setCookie(out)).toMatch(/^seo_session=;.*Max-Age=0/i);
    expect((await me(a)).status).toBe(401);
    expect((await request(t.url).delete('/account/v1/session').set('Cookie', a)).status).toBe(401);
    expect((await me(b)).status).toBe(200);
  });

  it('a session ends after 12 hours without use; use keeps it alive', async () => {
    const u = await user();
    const cookie = cookieOf(await signIn(u.email));
    t.clock.advance(11 * HOUR);
    expect((await me(cookie)).status).toBe(200);
    t.clock.advance(11 * HOUR);
    expect((await me(cookie)).status).toBe(200);
    t.clock.advance(12 * HOUR + 1000);
    expect((await me(cookie)).status).toBe(401);
    // Ended for good: going back in time does not revive it.
    t.clock.advance(-24 * HOUR);
    expect((await me(cookie)).status).toBe(401);
    t.clock.set(new Date());
  });

  it('a session ends 7 days after sign-in however much it is used', async () => {
    const u = await user();
    const start = t.clock.now().getTime();
    const cookie = cookieOf(await signIn(u.email));
    for (let h = 10; h < 7 * 24; h += 10) {
      t.clock.set(new Date(start + h * HOUR));
      expect((await me(cookie)).status).toBe(200);
    }
    t.clock.set(new Date(start + 7 * 24 * HOUR + 1000));
    expect((await me(cookie)).status).toBe(401);
    t.clock.set(new Date());
  });

  it('password change: {changed: true}; every other session ends, the current one stays; new password works', async () => {
    const u = await user();
    const current = cookieOf(await signIn(u.email));
    const other = cookieOf(await signIn(u.email));
    const next = 'a brand new long password';
    const res = await request(t.url)
      .post('/account/v1/password')
      .set('Cookie', current)
      .send({ current_password: PASSWORD, new_password: next });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ changed: true });
    expect((await me(current)).status).toBe(200);
    expect((await me(other)).status).toBe(401);
    expect((await signIn(u.email)).status).toBe(401);
    expect((await signIn(u.email, next)).status).toBe(200);
  });

  it('password change refusals: wrong current 422, new outside 12-256 422, wrong types 422; nothing changes', async () => {
    const u = await user();
    const current = cookieOf(await signIn(u.email));
    const other = cookieOf(await signIn(u.email));
    const post = (body: object) =>
      request(t.url).post('/account/v1/password').set('Cookie', current).send(body);

    const wrong = await post({
      current_password: 'not the password!',
      new_password: 'whatever long enough',
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.error.details).toEqual([
      { field: 'current_password', message: expect.any(String) },
    ]);
    for (const new_password of ['short', 'x'.repeat(257)]) {
      const res = await post({ current_password: PASSWORD, new_password });
      expect(res.status).toBe(422);
      expect(res.body.error.details[0].field).toBe('new_password');
    }
    for (const body of [
      {},
      { current_password: PASSWORD },
      { current_password: 1, new_password: 'long enough password' },
    ]) {
      expect((await post(body)).status).toBe(422);
    }
    expect((await me(other)).status).toBe(200);
    expect((await signIn(u.email)).status).toBe(200);
  });

  it('cookies carry Secure when PUBLIC_BASE_URL is https', async () => {
    const https = await createTestApp({
      env: {
        PUBLIC_BASE_URL: 'https://api.example.com',
        REDIS_PREFIX: `${process.env.REDIS_PREFIX}:sessions-https`,
      },
    });
    try {
      const u = await user();
      const res = await request(https.url)
        .post('/account/v1/session')
        .send({ email: u.email, password: PASSWORD });
      expect(res.status).toBe(200);
      const attrs = setCookie(res)
        .split(';')
        .map((a) => a.trim().toLowerCase());
      expect(attrs).toEqual(
        expect.arrayContaining(['httponly', 'samesite=lax', 'path=/', 'secure']),
      );
    } finally {
      await https.close();
    }
  });
});
