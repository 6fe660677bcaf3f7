import request from 'supertest';
import { AdminClient, bearer } from '../helpers/fixtures';
import { createTestApp, TestApp } from '../helpers/test-app';
import { rawRequest } from '../helpers/raw-http';

type Layer = { name: string; route?: { path: string } };

/**
 * What a request walks before its route (docs/performance.md, "Fewer layers in front of the
 * API"): Nest's own hook, the request lifecycle, CORS and the body stage, nothing else. The
 * operator pages (/docs, /admin/docs, /admin/queues) are mounted behind every route, in
 * front of the not-found handler, and still answer.
 */
describe('Layers in front of the routes', () => {
  let t: TestApp;
  let stack: Layer[];

  beforeAll(async () => {
    t = await createTestApp();
    stack = (t.app.getHttpAdapter().getInstance() as { router: { stack: Layer[] } }).router.stack;
  });
  afterAll(() => t.close());

  it('four middleware layers come before the first route, and the first route is GET /api/v1/usage', () => {
    const firstRoute = stack.findIndex((l) => l.route);
    expect(firstRoute).toBe(4);
    expect(stack[firstRoute].route?.path).toBe('/api/v1/usage');
    expect(stack.slice(0, firstRoute).map((l) => l.name)).toEqual([
      '<anonymous>', // Nest's request/response hooks
      '<anonymous>', // requestLifecycle
      'corsMiddleware',
      '<anonymous>', // bodyStage
    ]);
  });

  it('the operator pages are mounted behind the last Nest route, in front of the not-found handler', () => {
    const apiRoutes = stack
      .map((l, i) => [l, i] as const)
      .filter(([l]) => l.route && /^\/(api|account|admin\/v1|mcp)/.test(l.route.path));
    const lastApiRoute = Math.max(...apiRoutes.map(([, i]) => i));
    const docs = stack.findIndex((l) => l.route?.path === '/docs/openapi.json');
    const adminDocs = stack.findIndex((l) => l.route?.path === '/admin/docs/openapi.json');
    expect(docs).toBeGreaterThan(lastApiRoute);
    expect(adminDocs).toBeGreaterThan(lastApiRoute);
    expect(docs).toBeLessThan(stack.length - 2); // the not-found and error handlers are last
  });

  it('the operator pages still answer, and an unknown path is still a 404 envelope', async () => {
    expect((await request(t.url).get('/docs')).status).toBe(200);
    expect((await request(t.url).get('/docs/openapi.json')).status).toBe(200);
    const unknown = await request(t.url).get('/docs-nope');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');
  });

  it('a body-less request and an announced empty JSON body are told apart as before', async () => {
    const { key } = await new AdminClient(t.url).account('pro');
    // No body at all (no Content-Length, no Transfer-Encoding): the stage is passed at once,
    // and validation names the missing fields.
    const none = await rawRequest(t.url, 'POST', '/api/v1/keyword-research', {
      Authorization: `Bearer ${key}`,
    });
    expect(none.status).toBe(422);
    expect(JSON.parse(none.body).error.code).toBe('VALIDATION_ERROR');
    // Content-Length: 0 with a JSON type enters the body stage: the parser reads it as {}.
    const empty = await request(t.url)
      .post('/api/v1/keyword-research')
      .set(bearer(key))
      .set('Content-Type', 'application/json')
      .set('Content-Length', '0');
    expect(empty.status).toBe(422);
    expect(empty.body.error.code).toBe('VALIDATION_ERROR');
    // A non-JSON body is refused by the JSON-only check inside the stage.
    const form = await request(t.url)
      .post('/api/v1/keyword-research')
      .set(bearer(key))
      .type('form')
      .send('keyword=seo');
    expect(form.status).toBe(415);
    expect(form.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });
});
