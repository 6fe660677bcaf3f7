import request from 'supertest';
import { AdminClient, TestAccount, bearer } from '../helpers/fixtures';
import { createTestApp, TestApp } from '../helpers/test-app';
import { GENEROUS, YourDataAdmin } from '../your-data/your-data-fixtures';

/**
 * meta.warnings (docs/api.md, "Warnings"): what a request sent that the API did not use as
 * sent. The call answers as before (the spec's tolerance), and counts, but says so.
 */
describe('meta.warnings: unknown parameters and fields, values that fell back', () => {
  let t: TestApp;
  let acc: TestAccount;
  let property: number;

  beforeAll(async () => {
    t = await createTestApp();
    const admin = new AdminClient(t.url);
    acc = await admin.account('pro', GENEROUS);
    property = await new YourDataAdmin(admin).gscProperty(acc.id, 'sc-domain:warn.example');
  });
  afterAll(() => t.close());

  const get = (path: string) => request(t.url).get(path).set(bearer(acc.key));

  it('a clean call has no warnings member', async () => {
    const res = await get('/api/v1/rank/keywords?limit=5');
    expect(res.status).toBe(200);
    expect(res.body.meta).not.toHaveProperty('warnings');
  });

  it('an unknown query parameter is ignored and named, with the likely intended one', async () => {
    const res = await get('/api/v1/rank/keywords?limt=5');
    expect(res.status).toBe(200);
    expect(res.body.meta.limit).toBe(100);
    expect(res.body.meta.warnings).toEqual([
      {
        code: 'unknown_parameter',
        field: 'limt',
        message: 'Unknown query parameter "limt" was ignored. Did you mean "limit"?',
      },
    ]);
    // Still a counted call, as the spec says every request that reaches an endpoint is.
    const usage = await get('/api/v1/usage?foo=1&api_key=ignored-here');
    expect(usage.body.meta.warnings).toEqual([
      {
        code: 'unknown_parameter',
        field: 'foo',
        message: 'Unknown query parameter "foo" was ignored.',
      },
    ]);
  });

  it('an unknown body field and an unknown language_code (which falls back to en) are both named', async () => {
    const res = await request(t.url)
      .post('/api/v1/keyword-research')
      .set(bearer(acc.key))
      .send({ keyword: 'running shoes', langauge_code: 'de', language_code: 'xx' });
    expect(res.status).toBe(200);
    expect(res.body.data.language_code).toBe('en');
    expect(res.body.meta.warnings).toEqual([
      {
        code: 'unknown_field',
        field: 'langauge_code',
        message: 'Unknown body field "langauge_code" was ignored. Did you mean "language_code"?',
      },
      {
        code: 'value_replaced',
        field: 'language_code',
        message: 'language_code "xx" is not recognized; en was applied instead.',
        applied: 'en',
      },
    ]);
    const clean = await request(t.url)
      .post('/api/v1/keyword-research')
      .set(bearer(acc.key))
      .send({ keyword: 'running shoes', language_code: 'en-US' });
    expect(clean.status).toBe(200);
    expect(clean.body.meta).not.toHaveProperty('warnings');
  });

  it('an unrecognized dim or sort is still a 200 (the spec), with what was applied', async () => {
    const res = await get(
      `/api/v1/gsc/queries?property_id=${property}&dim=pages&sort=PAGE&dir=asc`,
    );
    expect(res.status).toBe(200);
    expect(res.body.data.dim).toBe('query');
    expect(res.body.meta.sort).toBe('clicks');
    expect(res.body.meta.warnings).toEqual([
      {
        code: 'value_replaced',
        field: 'dim',
        message: 'dim "pages" is not recognized; query was applied instead.',
        applied: 'query',
      },
      {
        code: 'value_replaced',
        field: 'sort',
        message: 'sort "PAGE" is not recognized; clicks was applied instead.',
        applied: 'clicks',
      },
    ]);
    const known = await get(`/api/v1/gsc/queries?property_id=${property}&dim=Device&sort=ctr`);
    expect(known.body.data.dim).toBe('device');
    expect(known.body.meta).not.toHaveProperty('warnings');
  });

  it('hostile names are shortened and sent as JSON text, never markup or prototype keys', async () => {
    const long = 'x'.repeat(300);
    const res = await get(
      `/api/v1/usage?${long}=1&__proto__=1&%3Cscript%3Ealert(1)%3C%2Fscript%3E=1&%01ctl=1`,
    );
    expect(res.status).toBe(200);
    const fields = res.body.meta.warnings.map((w: { field: string }) => w.field);
    expect(fields).toEqual([
      `${'x'.repeat(64)}…`,
      '__proto__',
      '<script>alert(1)</script>',
      '\u0001ctl',
    ]);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const post = await request(t.url)
      .post('/api/v1/keyword-research')
      .set(bearer(acc.key))
      .set('Content-Type', 'application/json')
      .send('{"keyword":"shoes","__proto__":{"admin":true},"constructor":1}');
    expect(post.status).toBe(200);
    expect(post.body.meta.warnings.map((w: { field: string }) => w.field)).toEqual([
      '__proto__',
      'constructor',
    ]);
  });

  it('errors carry no warnings; a validation error still names the bad field', async () => {
    const res = await get('/api/v1/rank/keywords?limit=0&limt=5');
    expect(res.status).toBe(422);
    expect(res.body.meta).not.toHaveProperty('warnings');
  });
});
