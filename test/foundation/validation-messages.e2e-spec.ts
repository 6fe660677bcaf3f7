import { AdminClient, TestAccount, bearer } from '../helpers/fixtures';
import { createTestApp, TestApp } from '../helpers/test-app';

const ROOMY = { api_calls_per_month: 'unlimited', requests_per_minute: 100_000 };
const SEND_JSON = 'Send the body as JSON with Content-Type: application/json.';

type RequestBody = NonNullable<RequestInit['body']>;

interface ErrorEnvelope {
  success: boolean;
  error: { code: string; message: string; details?: Array<{ field: string; message: string }> };
  meta: { timestamp: string };
}

/**
 * Issue 25, item 3: a 422 says one thing per field (the first rule that failed: required,
 * then type, then length or range), and a body that is not JSON is 415 "send JSON", not a
 * list of validation messages; nothing is charged or counted for it.
 */
describe('Validation messages and the JSON content type', () => {
  let t: TestApp;
  let admin: AdminClient;
  let acc: TestAccount;

  beforeAll(async () => {
    t = await createTestApp({ now: '2026-03-10T12:00:00Z' });
    admin = new AdminClient(t.url);
    acc = await admin.account('agency', ROOMY);
    await admin.credits(acc.id, 5);
  });
  afterAll(() => t.close());

  const get = (path: string) => t.http().get(path).set(bearer(acc.key));
  const post = (path: string, body: object) => t.http().post(path).set(bearer(acc.key)).send(body);
  const usage = async (id: number) => (await admin.get(`/accounts/${id}`)).body.data.usage;

  /** A 422 VALIDATION_ERROR with exactly one detail, for `field`; returns its message. */
  function oneMessage(res: { status: number; body: ErrorEnvelope }, field: string): string {
    expect(res.status).toBe(422);
    expect(res.body.success).toBe(false);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details).toEqual([{ field, message: expect.any(String) }]);
    expect(res.body.error.message).toBe(res.body.error.details![0].message);
    expect(typeof res.body.meta.timestamp).toBe('string');
    return res.body.error.message;
  }

  describe('422: one message per field, the first rule that failed', () => {
    it('GET /backlinks without domain: "domain is required", no length or type message', async () => {
      expect(oneMessage(await get('/api/v1/backlinks'), 'domain')).toBe('domain is required');
    });

    it('GET /rank/keywords?project_id=abc: one message, the type rule', async () => {
      const message = oneMessage(await get('/api/v1/rank/keywords?project_id=abc'), 'project_id');
      expect(message).toBe('project_id must be an integer number');
    });

    it.each([
      ['limit=0', '0', 'limit must not be less than 1'],
      ['limit=abc', 'abc', 'limit must be an integer number'],
      ['limit=201', '201', 'limit must not be greater than 200'],
    ])('GET /backlinks?%s: one message', async (_what, limit, expected) => {
      const res = await get(`/api/v1/backlinks?domain=example.com&limit=${limit}`);
      expect(oneMessage(res, 'limit')).toBe(expected);
    });

    it.each([
      ['keyword missing', {}, 'keyword', 'keyword is required'],
      ['keyword null', { keyword: null }, 'keyword', 'keyword is required'],
      ['keyword a number', { keyword: 42 }, 'keyword', 'keyword must be a string'],
      [
        'keyword of 201 characters',
        { keyword: 'k'.repeat(201) },
        'keyword',
        'keyword must be shorter than or equal to 200 characters',
      ],
      ['limit 0', { keyword: 'shoes', limit: 0 }, 'limit', 'limit must not be less than 1'],
      [
        'limit "abc"',
        { keyword: 'shoes', limit: 'abc' },
        'limit',
        'limit must be an integer number',
      ],
      [
        'language_code a number',
        { keyword: 'shoes', language_code: 5 },
        'language_code',
        'language_code must be a string',
      ],
    ])('POST /keyword-research, %s: one message', async (_what, body, field, expected) => {
      expect(oneMessage(await post('/api/v1/keyword-research', body), field)).toBe(expected);
    });

    it('POST /site-audit without url: "url is required"', async () => {
      expect(oneMessage(await post('/api/v1/site-audit', {}), 'url')).toBe('url is required');
    });

    it('two fields wrong: one entry each, the message joins them', async () => {
      const res = await post('/api/v1/keyword-research', { limit: 0 });
      expect(res.status).toBe(422);
      expect(res.body.error.details).toEqual([
        { field: 'keyword', message: 'keyword is required' },
        { field: 'limit', message: 'limit must not be less than 1' },
      ]);
      expect(res.body.error.message).toBe('keyword is required; limit must not be less than 1');
    });

    it('admin and account-area DTOs go through the same rule', async () => {
      const res = await admin.post('/accounts', { name: 'x' });
      expect(oneMessage(res, 'plan')).toBe('plan is required');
      const credits = await admin.post(`/accounts/${acc.id}/credits`, { reason: 'x' });
      expect(oneMessage(credits, 'amount')).toBe('amount is required');
    });
  });

  describe('415 for a body that is not JSON, nothing charged or counted', () => {
    const bodies: Array<[string, () => { body: RequestBody; type?: string }]> = [
      [
        'form-encoded',
        () => ({ body: new URLSearchParams({ keyword: 'shoes', url: 'https://example.com/' }) }),
      ],
      ['text/plain', () => ({ body: JSON.stringify({ keyword: 'shoes' }), type: 'text/plain' })],
      [
        'multipart',
        () => {
          const form = new FormData();
          form.set('keyword', 'shoes');
          return { body: form };
        },
      ],
      ['without a Content-Type', () => ({ body: new TextEncoder().encode('{"keyword":"shoes"}') })],
    ];

    async function send(
      path: string,
      make: () => { body: RequestBody; type?: string },
      key = acc.key,
    ) {
      const { body, type } = make();
      const headers: Record<string, string> = { Authorization: `Bearer ${key}` };
      if (type) headers['Content-Type'] = type;
      const res = await fetch(`${t.url}${path}`, { method: 'POST', body, headers });
      return {
        status: res.status,
        sentType: type,
        body: (await res.json()) as ErrorEnvelope,
      };
    }

    it.each(['/api/v1/keyword-research', '/api/v1/site-audit'])(
      'POST %s: form, text/plain, multipart and no Content-Type are 415 UNSUPPORTED_MEDIA_TYPE "send JSON"; not counted, not charged',
      async (path) => {
        const fresh = await admin.account('pro', ROOMY);
        await admin.credits(fresh.id, 3);
        const before = await usage(fresh.id);
        for (const [what, make] of bodies) {
          const res = await send(path, make, fresh.key);
          expect({
            what,
            status: res.status,
            success: res.body.success,
            code: res.body.error?.code,
          }).toEqual({
            what,
            status: 415,
            success: false,
            code: 'UNSUPPORTED_MEDIA_TYPE',
          });
          expect(res.body.error.message).toContain(SEND_JSON);
          expect(res.body.error.details).toBeUndefined();
          expect(typeof res.body.meta.timestamp).toBe('string');
        }
        // Not an API call (like the body parser's refusals), no quota, no credit, no job.
        expect(await usage(fresh.id)).toEqual(before);
        const jobs = await t.db.query(`SELECT count(*)::int AS n FROM jobs WHERE account_id = $1`, [
          fresh.id,
        ]);
        expect(jobs[0].n).toBe(0);
        // A 422, which reaches the endpoint, is counted as a call and charges nothing else.
        await t.http().post(path).set(bearer(fresh.key)).send({});
        const after = await usage(fresh.id);
        expect(after).toEqual({ ...before, api_calls_per_month: before.api_calls_per_month + 1 });
      },
    );

    it('the message names what was sent', async () => {
      const form = await send('/api/v1/keyword-research', bodies[0][1]);
      expect(form.body.error.message).toBe(
        `Content-Type "application/x-www-form-urlencoded" is not accepted. ${SEND_JSON}`,
      );
      const none = await send('/api/v1/keyword-research', bodies[3][1]);
      expect(none.body.error.message).toBe(
        `The request has a body but no Content-Type. ${SEND_JSON}`,
      );
    });

    it.each([
      'application/json; charset=utf-8',
      'application/json;charset=UTF-8',
      'APPLICATION/JSON',
      'application/vnd.api+json',
    ])('Content-Type %s is JSON: the body is read', async (type) => {
      const res = await t
        .http()
        .post('/api/v1/keyword-research')
        .set(bearer(acc.key))
        .set('Content-Type', type)
        .send(JSON.stringify({ keyword: 'running shoes', limit: 2 }));
      expect(res.status).toBe(200);
      expect(res.body.data.keyword).toBe('running shoes');
    });

    it('malformed JSON stays 400 BAD_REQUEST', async () => {
      const res = await t
        .http()
        .post('/api/v1/keyword-research')
        .set(bearer(acc.key))
        .set('Content-Type', 'application/json')
        .send('{"keyword": ');
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('BAD_REQUEST');
    });

    it('the admin and account-area JSON APIs answer the same 415 (nothing created)', async () => {
      const res = await t
        .http()
        .post('/admin/v1/accounts')
        .set('Authorization', `Bearer ${process.env.ADMIN_TOKEN}`)
        .type('form')
        .send('name=form&plan=pro');
      expect(res.status).toBe(415);
      expect(res.body.error).toMatchObject({
        code: 'UNSUPPORTED_MEDIA_TYPE',
        message: expect.stringContaining(SEND_JSON),
      });
      const created = await t.db.query(
        `SELECT count(*)::int AS n FROM accounts WHERE name = 'form'`,
      );
      expect(created[0].n).toBe(0);
      const session = await t
        .http()
        .post('/account/v1/session')
        .set('Content-Type', 'text/plain')
        .send('{}');
      expect(session.status).toBe(415);
      expect(session.body.error.message).toContain(SEND_JSON);
    });
  });
});
