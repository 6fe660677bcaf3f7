import request from 'supertest';
import { AdminClient } from '../helpers/fixtures';
import { createTestApp, TestApp } from '../helpers/test-app';

const PASSWORD = 'a long enough password';
const unique = () => Math.random().toString(36).slice(2, 10);

function cookieOf(res: request.Response): string {
  const cookies = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
  const found = cookies.find((c) => c.startsWith('seo_session='));
  if (!found) throw new Error(`no session cookie: ${res.status} ${JSON.stringify(res.body)}`);
  return found.split(';')[0];
}

/** Cross-site requests cannot act for a signed-in user; the account area sends no CORS headers. */
describe('Account area: cross-site refusals and no CORS', () => {
  let t: TestApp;
  let admin: AdminClient;

  beforeAll(async () => {
    t = await createTestApp({ env: { REDIS_PREFIX: `${process.env.REDIS_PREFIX}:cross-site` } });
    admin = new AdminClient(t.url);
  });
  afterAll(() => t.close());

  async function signedIn() {
    const acc = await admin.account('pro');
    const email = `x.${unique()}@example.com`;
    await admin.post(`/accounts/${acc.id}/users`, { email, password: PASSWORD }).expect(201);
    const res = await request(t.url)
      .post('/account/v1/session')
      .send({ email, password: PASSWORD });
    return { email, cookie: cookieOf(res) };
  }
  const me = (cookie: string) => request(t.url).get('/account/v1/me').set('Cookie', cookie);

  const CROSS_SITE: Array<[string, Record<string, string>]> = [
    ['Origin of another site', { Origin: 'https://evil.example' }],
    ['Origin null', { Origin: 'null' }],
    ['Origin differing by port', { Origin: 'http://localhost:3001' }],
    ['Sec-Fetch-Site cross-site', { 'Sec-Fetch-Site': 'cross-site' }],
    [
      'Sec-Fetch-Site cross-site with our Origin',
      { 'Sec-Fetch-Site': 'cross-site', Origin: 'http://localhost:3000' },
    ],
  ];

  it.each(CROSS_SITE)('sign-in with %s: 403 FORBIDDEN, no session started', async (_, headers) => {
    const { email } = await signedIn();
    const res = await request(t.url)
      .post('/account/v1/session')
      .set(headers)
      .send({ email, password: PASSWORD });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it.each(CROSS_SITE)(
    'password change with %s: 403, the password is unchanged',
    async (_, headers) => {
      const { email, cookie } = await signedIn();
      const other = cookieOf(
        await request(t.url).post('/account/v1/session').send({ email, password: PASSWORD }),
      );
      const res = await request(t.url)
        .post('/account/v1/password')
        .set('Cookie', cookie)
        .set(headers)
        .send({ current_password: PASSWORD, new_password: 'an attacker chosen password' });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
      expect((await me(other)).status).toBe(200);
      const again = await request(t.url)
        .post('/account/v1/session')
        .send({ email, password: PASSWORD });
      expect(again.status).toBe(200);
    },
  );

  it.each(CROSS_SITE)(
    'usage-alert settings with %s: 403, the settings are unchanged',
    async (_, headers) => {
      const { cookie } = await signedIn();
      const res = await request(t.url)
        .put('/account/v1/alerts')
        .set('Cookie', cookie)
        .set(headers)
        .send({ webhook_url: 'https://hooks.example.com/steal', thresholds: [1] });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
      const now = await request(t.url).get('/account/v1/alerts').set('Cookie', cookie);
      expect(now.body.data.webhook_url).toBeNull();
    },
  );

  it('cross-site sign-out is refused and the session goes on; a path in another case is guarded too', async () => {
    const { cookie } = await signedIn();
    for (const path of ['/account/v1/session', '/ACCOUNT/v1/session', '/Account/V1/Session']) {
      const res = await request(t.url)
        .delete(path)
        .set('Cookie', cookie)
        .set('Origin', 'https://evil.example');
      expect(res.status).toBe(403);
    }
    expect((await me(cookie)).status).toBe(200);
  });

  it('state-changing requests under /oauth are refused cross-site too (403 once such a route exists; unknown routes 404)', async () => {
    const res = await request(t.url)
      .post('/oauth/token')
      .set('Origin', 'https://evil.example')
      .send({});
    // 403 when an /oauth route exists; an unknown route is 404 (nothing to act on).
    expect([403, 404]).toContain(res.status);
  });

  it('same-origin requests pass: PUBLIC_BASE_URL’s origin, the addressed host’s, same-origin/none fetches, no Origin', async () => {
    const { email } = await signedIn();
    for (const headers of [
      { Origin: 'http://localhost:3000' },
      { Origin: t.url },
      { 'Sec-Fetch-Site': 'same-origin', Origin: t.url },
      { 'Sec-Fetch-Site': 'none' },
      {},
    ]) {
      const res = await request(t.url)
        .post('/account/v1/session')
        .set(headers)
        .send({ email, password: PASSWORD });
      expect(res.status).toBe(200);
    }
  });

  it('GET is never refused for its Origin (reads change nothing)', async () => {
    const { cookie } = await signedIn();
    const res = await me(cookie)
      .set('Origin', 'https://evil.example')
      .set('Sec-Fetch-Site', 'cross-site');
    expect(res.status).toBe(200);
  });

  it('the account area sends no Access-Control-Allow-* headers, preflight included; /api/v1 keeps its CORS', async () => {
    const { cookie } = await signedIn();
    const answers = [
      await me(cookie).set('Origin', 'https://evil.example'),
      await request(t.url)
        .options('/account/v1/session')
        .set('Origin', 'https://evil.example')
        .set('Access-Control-Request-Method', 'POST')
        .set('Access-Control-Request-Headers', 'content-type'),
      await request(t.url)
        .post('/account/v1/session')
        .set('Origin', 'https://evil.example')
        .send({ email: 'a@b.c', password: 'x' }),
      await request(t.url).get('/account/sign-in').set('Origin', 'https://evil.example'),
      await request(t.url)
        .options('/oauth/token')
        .set('Origin', 'https://evil.example')
        .set('Access-Control-Request-Method', 'POST'),
    ];
    for (const res of answers) {
      const cors = Object.keys(res.headers).filter((h) => h.startsWith('access-control-'));
      expect(cors).toEqual([]);
    }

    const acc = await admin.account('pro');
    const api = await request(t.url)
      .get('/api/v1/usage')
      .set('Authorization', `Bearer ${acc.key}`)
      .set('Origin', 'https://evil.example');
    expect(api.headers['access-control-allow-origin']).toBe('*');
    const preflight = await request(t.url)
      .options('/api/v1/usage')
      .set('Origin', 'https://evil.example')
      .set('Access-Control-Request-Method', 'GET');
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
  });
});
