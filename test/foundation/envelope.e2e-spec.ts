import { AdminClient, bearer, TestAccount } from '../helpers/fixtures';
import { ProbeModule } from '../helpers/probe.module';
import { ADMIN_TOKEN, createTestApp, TestApp } from '../helpers/test-app';

const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?[+-]\d{2}:\d{2}$/;

describe('Response envelope, errors, request ids, CORS (spec: Response envelope, Errors)', () => {
  let t: TestApp;
  let acc: TestAccount;

  beforeAll(async () => {
    t = await createTestApp({ imports: [ProbeModule] });
    acc = await new AdminClient(t.url).account('agency', {
      api_calls_per_month: 'unlimited',
      requests_per_minute: 1000,
    });
  });
  afterAll(() => t.close());

  it('success: {success: true, data, meta.timestamp ISO 8601 with offset, meta.request_id}', async () => {
    const res = await t.http().get('/api/v1/usage').set(bearer(acc.key));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.body.success).toBe(true);
    expect(res.body.data).toEqual(expect.any(Object));
    expect(res.body.error).toBeUndefined();
    expect(res.body.meta.timestamp).toMatch(ISO_WITH_OFFSET);
    expect(res.body.meta.request_id).toBe(res.headers['x-request-id']);
  });

  it('every response carries a request id header, also errors and 404s', async () => {
    for (const res of [
      await t.http().get('/api/v1/usage'),
      await t.http().get('/api/v1/nope').set(bearer(acc.key)),
      await t.http().get('/health/live'),
    ]) {
      expect(res.headers['x-request-id']).toEqual(expect.any(String));
      expect(res.body.meta.request_id).toBe(res.headers['x-request-id']);
    }
  });

  it('keeps a sane caller-supplied X-Request-Id and replaces a hostile one', async () => {
    const ok = await t
      .http()
      .get('/api/v1/usage')
      .set(bearer(acc.key))
      .set('X-Request-Id', 'client-req-12345');
    expect(ok.headers['x-request-id']).toBe('client-req-12345');
    const bad = await t
      .http()
      .get('/api/v1/usage')
      .set(bearer(acc.key))
      .set('X-Request-Id', '<script>alert(1)</script>');
    expect(bad.headers['x-request-id']).not.toContain('<');
  });

  it('404 NOT_FOUND envelope for an unknown endpoint, with or without a key', async () => {
    for (const res of [
      await t.http().get('/api/v1/does-not-exist'),
      await t.http().post('/nothing/here').send({}),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
      expect(res.body.meta.timestamp).toMatch(ISO_WITH_OFFSET);
    }
  });

  it('400 BAD_REQUEST for malformed JSON', async () => {
    const res = await t
      .http()
      .post('/api/v1/__probe/research')
      .set(bearer(acc.key))
      .set('Content-Type', 'application/json')
      .send('{"name": "x", ');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: { code: 'BAD_REQUEST' } });
  });

  it('422 VALIDATION_ERROR with per-field details', async () => {
    const res = await t
      .http()
      .post('/api/v1/__probe/research')
      .set(bearer(acc.key))
      .send({ count: 'five' });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    const fields = res.body.error.details.map((d: { field: string }) => d.field);
    expect(fields).toEqual(expect.arrayContaining(['name', 'count']));
  });

  it.each([
    ['a JSON array body', [1, 2]],
    ['a JSON string body', '"just a string"'],
  ])('422 for %s', async (_what, body) => {
    const res = await t
      .http()
      .post('/api/v1/__probe/research')
      .set(bearer(acc.key))
      .set('Content-Type', 'application/json')
      .send(typeof body === 'string' ? body : JSON.stringify(body));
    expect([400, 422]).toContain(res.status);
    expect(res.body.success).toBe(false);
  });

  it.each(['1.5', 'abc', '', '0', '501', '1e3', '-1'])('422 for query limit=%s', async (v) => {
    const res = await t
      .http()
      .get(`/api/v1/__probe/research?limit=${encodeURIComponent(v)}`)
      .set(bearer(acc.key));
    expect(res.status).toBe(422);
    expect(res.body.error.details[0].field).toBe('limit');
  });

  it('422 for a repeated query parameter', async () => {
    const res = await t.http().get('/api/v1/__probe/research?limit=5&limit=6').set(bearer(acc.key));
    expect(res.status).toBe(422);
  });

  it('413 for an oversized body, never a 500', async () => {
    const res = await t
      .http()
      .post('/api/v1/__probe/research')
      .set(bearer(acc.key))
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ name: 'x'.repeat(11 * 1024 * 1024) }));
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('500 SERVER_ERROR without internals', async () => {
    const res = await t.http().get('/api/v1/__probe/boom').set(bearer(acc.key));
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ success: false, error: { code: 'SERVER_ERROR' } });
    const text = JSON.stringify(res.body);
    expect(text).not.toMatch(/hunter2|secret internal|app\.ts|stack/i);
  });

  it("an error answered by Nest's base filter still leaves as an error envelope, never success: true", async () => {
    const forbidden = await t
      .http()
      .get('/api/v1/__probe/base-filter/forbidden')
      .set(bearer(acc.key));
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toMatchObject({
      success: false,
      error: { code: 'FORBIDDEN', message: 'Probe: forbidden by a Nest exception' },
    });
    expect(forbidden.body.data).toBeUndefined();
    expect(forbidden.body.meta.timestamp).toMatch(ISO_WITH_OFFSET);
    expect(forbidden.body.meta.request_id).toBe(forbidden.headers['x-request-id']);

    const crash = await t.http().get('/api/v1/__probe/base-filter/crash').set(bearer(acc.key));
    expect(crash.status).toBe(500);
    expect(crash.body).toMatchObject({ success: false, error: { code: 'SERVER_ERROR' } });
    expect(JSON.stringify(crash.body)).not.toMatch(/abc123|secret internal/);
  });

  it('CORS: permissive headers on responses, preflight answered without a key', async () => {
    const pre = await t
      .http()
      .options('/api/v1/usage')
      .set('Origin', 'https://dashboard.example')
      .set('Access-Control-Request-Method', 'GET')
      .set('Access-Control-Request-Headers', 'authorization');
    expect(pre.status).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe('*');
    expect(pre.headers['access-control-allow-headers'].toLowerCase()).toContain('authorization');
    const res = await t
      .http()
      .get('/api/v1/usage')
      .set('Origin', 'https://dashboard.example')
      .set(bearer(acc.key));
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-expose-headers']).toContain('X-RateLimit-Remaining');
  });

  it('health endpoints need no key', async () => {
    const live = await t.http().get('/health/live');
    expect(live.status).toBe(200);
    expect(live.body.data.status).toBe('ok');
    const ready = await t.http().get('/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body.data.checks).toEqual({ postgres: 'ok', redis: 'ok' });
    // Anyone sees the replication state, never a node's address or a replica's name.
    expect(Object.keys(ready.body.data.primary).sort()).toEqual([
      'checked_at',
      'in_recovery',
      'replication',
    ]);
    expect(ready.body.data.primary.in_recovery).toBe(false);
    expect(Object.keys(ready.body.data.standby).sort()).toEqual(['lag_ms', 'state']);
    expect(JSON.stringify(ready.body)).not.toMatch(/127\.0\.0\.1|"port"|application_name/);
  });

  it('health/ready: the operator (admin or metrics token) sees which node answered; a wrong token is 401', async () => {
    // Which node DATABASE_URL reached, and its replication state (issue 43).
    const ready = await t
      .http()
      .get('/health/ready')
      .set('Authorization', `Bearer ${ADMIN_TOKEN()}`);
    expect(ready.status).toBe(200);
    expect(ready.body.data.primary).toMatchObject({ in_recovery: false, port: 5432 });
    expect(ready.body.data.primary).toHaveProperty('address');
    expect(Array.isArray(ready.body.data.primary.replication)).toBe(true);
    expect(ready.body.data.standby).toHaveProperty('node', null);
    const wrong = await t
      .http()
      .get('/health/ready')
      .set('Authorization', 'Bearer not-the-admin-token-0123456789');
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe('UNAUTHORIZED');
    expect(JSON.stringify(wrong.body)).not.toMatch(/"port"|address/);
    // …and on /metrics, one series for that node (publishNodeInfo, libs/database).
    const metrics = await t
      .http()
      .get('/metrics')
      .set({ Authorization: `Bearer ${process.env.ADMIN_TOKEN}` });
    expect(metrics.status).toBe(200);
    expect(metrics.text.match(/^db_primary_node_info\{.*$/gm)).toEqual([
      `db_primary_node_info{address="${ready.body.data.primary.address ?? 'socket'}",port="5432"} 1`,
    ]);
  });

  it('serves the OpenAPI document with both security schemes', async () => {
    const res = await t.http().get('/docs/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\./);
    expect(Object.keys(res.body.components.securitySchemes)).toEqual(
      expect.arrayContaining(['bearer', 'api_key']),
    );
    expect(res.body.components.securitySchemes.api_key).toMatchObject({
      type: 'apiKey',
      in: 'query',
      name: 'api_key',
    });
    expect(Object.keys(res.body.paths)).toContain('/api/v1/usage');
    const html = await t.http().get('/docs');
    expect(html.status).toBe(200);
  });
});
