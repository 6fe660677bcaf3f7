import request from 'supertest';
import { AdminClient, TestAccount, bearer } from '../helpers/fixtures';
import { SignedInUser, signIn } from '../helpers/account-session';
import { ADMIN_TOKEN, createTestApp, TestApp } from '../helpers/test-app';
import { rawRequest } from '../helpers/raw-http';

/** One raw GET with the request target exactly as given. */
const rawGet = (base: string, target: string) => rawRequest(base, 'GET', target);

const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * Security headers, the operator hand-off and the 404 message (issue 35): nosniff on every
 * answer (JSON included), no-store on /account/v1, CSP and no framing on the operator pages,
 * HSTS exactly when PUBLIC_BASE_URL is https; the `?token=` hand-off never redirects off-site,
 * however its dot segments are spelled; a key pasted into a path is not echoed.
 */
describe.each([
  ['http', 'http://localhost:3000', false],
  ['https', 'https://api.example.test', true],
])('Security headers with a %s PUBLIC_BASE_URL (issue 35)', (scheme, publicBaseUrl, hsts) => {
  let t: TestApp;
  let account: TestAccount;
  let user: SignedInUser;

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        PUBLIC_BASE_URL: publicBaseUrl,
        REDIS_PREFIX: `${process.env.REDIS_PREFIX}:headers-${scheme}`,
      },
    });
    account = await new AdminClient(t.url).account('pro', { requests_per_minute: 100_000 });
    user = await signIn(t.url, account.id);
  });
  afterAll(() => t.close());

  const admin = () => bearer(ADMIN_TOKEN());
  /** Every kind of answer: JSON (success, refusal, 404, body error), HTML, redirect, files. */
  const ANSWERS: Array<[string, () => request.Test]> = [
    ['JSON 200 /api/v1/usage', () => request(t.url).get('/api/v1/usage').set(bearer(account.key))],
    ['JSON 401 /api/v1/usage', () => request(t.url).get('/api/v1/usage')],
    ['JSON 404 unknown route', () => request(t.url).get('/api/v1/no-such-route')],
    [
      'JSON 400 malformed body',
      () =>
        request(t.url)
          .post('/api/v1/keyword-research')
          .set(bearer(account.key))
          .set('Content-Type', 'application/json')
          .send('{"keyword":'),
    ],
    ['JSON /health/ready', () => request(t.url).get('/health/ready')],
    ['JSON admin API', () => request(t.url).get('/admin/v1/accounts').set(admin())],
    ['JSON /account/v1/me', () => user.get('/me')],
    ['HTML home page', () => request(t.url).get('/')],
    ['HTML sign-in page', () => request(t.url).get('/account/sign-in')],
    ['HTML /docs', () => request(t.url).get('/docs/')],
    ['HTML /admin/queues', () => request(t.url).get('/admin/queues').set(admin())],
    ['HTML /admin/docs', () => request(t.url).get('/admin/docs/').set(admin())],
    [
      'JSON /admin/queues/api/queues',
      () => request(t.url).get('/admin/queues/api/queues').set(admin()),
    ],
    [
      '303 operator hand-off',
      () => request(t.url).get(`/admin/queues?token=${ADMIN_TOKEN()}`).redirects(0),
    ],
    ['text /metrics', () => request(t.url).get('/metrics').set(admin())],
  ];

  it.each(ANSWERS)(
    `%s: nosniff; HSTS ${hsts ? 'one year with subdomains' : 'absent'}`,
    async (_, send) => {
      const res = await send();
      expect(res.status).toBeLessThan(500);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      if (hsts) expect(res.headers['strict-transport-security']).toBe(HSTS);
      else expect(res.headers['strict-transport-security']).toBeUndefined();
    },
  );

  it.each([
    ['GET /account/v1/me (signed in)', () => user.get('/me'), 200],
    ['GET /account/v1/api-keys (signed in)', () => user.get('/api-keys'), 200],
    ['GET /account/v1/usage (signed in)', () => user.get('/usage'), 200],
    ['GET /account/v1/me (signed out)', () => request(t.url).get('/account/v1/me'), 401],
    [
      'GET /ACCOUNT/V1/me (signed in)',
      () => request(t.url).get('/ACCOUNT/V1/me').set('Cookie', user.cookie),
      200,
    ],
    [
      'GET /account/v1/me?x=1',
      () => request(t.url).get('/account/v1/me?x=1').set('Cookie', user.cookie),
      200,
    ],
    ['GET /account/v1/no-such-route', () => request(t.url).get('/account/v1/no-such-route'), 404],
    [
      'POST /account/v1/session (wrong password)',
      () =>
        request(t.url)
          .post('/account/v1/session')
          .send({ email: user.email, password: 'wrong password 123' }),
      401,
    ],
  ] as Array<[string, () => request.Test, number]>)(
    '%s: Cache-Control no-store',
    async (_, send, status) => {
      const res = await send();
      expect(res.status).toBe(status);
      expect(res.headers['cache-control']).toBe('no-store');
    },
  );

  it('the key-authenticated API is not made no-store by the account rule (/api/v1, /accounts)', async () => {
    const res = await request(t.url).get('/api/v1/usage').set(bearer(account.key));
    expect(res.headers['cache-control']).toBeUndefined();
  });

  it.each([
    ['/admin/queues', {}, 401],
    ['/admin/queues', 'admin', 200],
    ['/admin/queues/queue/site-audit', 'admin', 200],
    ['/admin/queues/api/queues', 'admin', 200],
    ['/admin/queues?token=wrong-token-0123456789', {}, 401],
    [`/admin/queues?token=TOKEN`, {}, 303],
    ['/admin/docs', {}, 401],
    ['/admin/docs/', 'admin', 200],
    ['/admin/docs/openapi.json', 'admin', 200],
    [`/admin/docs/?token=TOKEN`, {}, 303],
  ] as Array<[string, object | 'admin', number]>)(
    '%s: CSP with frame-ancestors none, X-Frame-Options DENY, own scripts only',
    async (path, auth, status) => {
      const res = await request(t.url)
        .get(path.replace('TOKEN', ADMIN_TOKEN()))
        .set(auth === 'admin' ? admin() : {})
        .redirects(0);
      expect(res.status).toBe(status);
      const csp = String(res.headers['content-security-policy'] ?? '');
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/script-src[^;]*(unsafe|\*|https?:|data:)/);
      expect(csp).toContain("object-src 'none'");
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    },
  );
});

describe('Operator ?token= hand-off and 404 messages over raw HTTP (issue 35)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { REDIS_PREFIX: `${process.env.REDIS_PREFIX}:handoff` } });
  });
  afterAll(() => t.close());

  /** Dot segments as a client may spell them (the unit test holds thousands more). */
  const DOTS = ['..', '%2e%2e', '%2E%2E', '%2e%2E', '.%2e', '%2e.', '%252e%252e', '.'];
  const SEPARATORS = ['/', '\\', '%2f', '%5c', '/\\'];
  const TARGETS = [
    '//evil.example',
    '/\\evil.example',
    '/%09/evil.example',
    '///evil.example',
    '/%2f/evil.example',
  ];
  const cases: Array<[string, string]> = [
    ['/admin/queues', '/admin/queues/%2e%2e/%2e%2e/%2e%2e//evil.example'],
    ['/admin/queues', '/admin/queues/../../..//evil.example'],
    ['/admin/queues', '/admin/queues//evil.example'],
    ['/admin/queues', '/admin/queues/\\evil.example'],
    ['/ADMIN/QUEUES', '/ADMIN/QUEUES/%2E%2E/%2E%2E/%2E%2E//evil.example'],
    ['/admin/docs', '/admin/docs/%2e%2e/%2e%2e/%2e%2e//evil.example'],
    ['/admin/queues', 'http://evil.example/admin/queues/..//evil.example'],
  ];
  for (const mount of ['/admin/queues', '/admin/docs'])
    for (const dot of DOTS)
      for (const sep of SEPARATORS)
        for (const target of TARGETS)
          cases.push([mount, `${mount}/${dot}${sep}${dot}${sep}${dot}${target}`]);

  it.each(cases)(
    'mount %s, GET %s?token=…: 303 to a path below the mount on this origin',
    async (mount, path) => {
      const res = await rawGet(t.url, `${path}?token=${encodeURIComponent(ADMIN_TOKEN())}`);
      expect(res.status).toBe(303);
      const location = res.headers.location;
      expect(location).toMatch(/^\/(?![/\\])/);
      expect(location).not.toContain('token=');
      expect(location).not.toMatch(/[\\\s]/);
      const resolved = new URL(location, t.url);
      expect(resolved.origin).toBe(t.url);
      expect(resolved.pathname.toLowerCase().startsWith(mount.toLowerCase())).toBe(true);
      expect(res.headers['set-cookie']).toMatch(/^ops_session=/);
    },
  );

  it('the hand-off of an ordinary URL keeps the page and its query, without the token', async () => {
    const res = await rawGet(
      t.url,
      `/admin/queues/queue/site-audit?status=failed&token=${encodeURIComponent(ADMIN_TOKEN())}`,
    );
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/admin/queues/queue/site-audit?status=failed');
  });

  const KEY = `seo_live_${'Ab3_-'.repeat(8)}xyz`;
  it.each([
    `/api/v1/usage/${KEY}`,
    `/api/v1/${KEY}`,
    `/${KEY}`,
    `/api/v1/usage/${encodeURIComponent(KEY).replace(/_/g, '%5F')}`,
    `/api/v1/usage/${KEY.replace(/_/g, '%255F')}`,
    `/api/v1/usage/x${KEY}.json`,
    `/account/v1/${KEY}`,
    `/api/v1/usage/seo_test_${KEY.slice(9)}`,
  ])('a key pasted into the path (%s) is not echoed in the 404 message', async (path) => {
    const res = await request(t.url).get(path).set(bearer(KEY));
    expect([401, 404]).toContain(res.status);
    const text = JSON.stringify(res.body);
    expect(text).not.toContain(KEY.slice(9, 30));
    expect(text.toLowerCase()).not.toMatch(/seo(_|%5f|%255f)(live|test)/);
    const unknown = await request(t.url).get(path);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toContain('[REDACTED]');
    expect(JSON.stringify(unknown.body)).not.toContain(KEY.slice(9, 30));
  });
});
