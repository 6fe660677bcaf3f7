import request from 'supertest';
import { AdminClient, bearer } from '../helpers/fixtures';
import { createTestApp, TestApp } from '../helpers/test-app';

/**
 * A wrong method on a known path says which methods the path has (`Allow` and the message):
 * under /api/v1 still the spec's 404 NOT_FOUND, elsewhere 405 METHOD_NOT_ALLOWED. Unknown
 * paths stay a plain 404.
 */
describe('wrong method on a known path', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await createTestApp();
    key = (await new AdminClient(t.url).account('pro')).key;
  });
  afterAll(() => t.close());

  it.each([
    ['delete', '/api/v1/usage', 'GET, HEAD'],
    ['post', '/api/v1/backlinks', 'GET, HEAD'],
    ['get', '/api/v1/site-audit', 'POST'],
    ['put', '/api/v1/jobs/job_00000000000000000000', 'GET, HEAD'],
    ['put', '/API/V1/USAGE/', 'GET, HEAD'],
  ])('%s %s: 404 NOT_FOUND naming %s, with Allow', async (method, path, allow) => {
    const res = await request(t.url)[method as 'get'](path).set(bearer(key));
    expect(res.status).toBe(404);
    expect(res.body.success).toBe(false);
    expect(res.body.error.code).toBe('NOT_FOUND');
    expect(res.body.error.message).toContain(`This path answers ${allow}.`);
    expect(res.headers.allow).toBe(allow);
  });

  it.each([
    ['delete', '/account/v1/me'],
    ['put', '/admin/v1/accounts'],
    ['patch', '/health/ready'],
  ])('%s %s: 405 METHOD_NOT_ALLOWED with Allow', async (method, path) => {
    const res = await request(t.url)[method as 'get'](path);
    expect(res.status).toBe(405);
    expect(res.body.error.code).toBe('METHOD_NOT_ALLOWED');
    expect(res.headers.allow).toMatch(/^[A-Z]+(, [A-Z]+)*$/);
    expect(res.body.error.message).toContain(`This path answers ${res.headers.allow}.`);
  });

  it('an admin path lists every method its routes have', async () => {
    const res = await request(t.url).put('/admin/v1/accounts/1');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, PATCH');
  });

  it('unknown paths stay a plain 404 without Allow, hostile paths echoed safely', async () => {
    for (const path of [
      '/api/v1/nope',
      '/api/v1/usage/extra',
      '/nope',
      `/api/v1/${'%3Cscript%3E'}`,
    ]) {
      const res = await request(t.url).delete(path).set(bearer(key));
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
      expect(res.headers.allow).toBeUndefined();
      expect(res.body.error.message).not.toContain('This path answers');
      expect(res.text).not.toContain('<script>');
    }
  });

  it('a wrong method is not counted on the monthly meter', async () => {
    const before = (await request(t.url).get('/api/v1/usage').set(bearer(key))).body.data;
    await request(t.url).delete('/api/v1/usage').set(bearer(key));
    const after = (await request(t.url).get('/api/v1/usage').set(bearer(key))).body.data;
    expect(after.api_calls_used).toBe(before.api_calls_used + 1);
  });
});
