import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { ERROR_STATUS } from '@app/core';
import { ERROR_EXAMPLES, declaredEndpoints } from '@app/gateway';
import { endpointErrors } from '../../apps/api/src/ops/openapi';
import { ADMIN_TOKEN, createTestApp, TestApp } from '../helpers/test-app';

/**
 * Validates a document with @seriousme/openapi-schema-validator (an ES module: run in a child
 * Node process, since jest here loads CommonJS).
 */
function validateOpenApi(doc: unknown): { valid: boolean; errors?: unknown } {
  const dir = mkdtempSync(join(tmpdir(), 'openapi-'));
  const file = join(dir, 'doc.json');
  writeFileSync(file, JSON.stringify(doc));
  const script = `
    import { Validator } from '@seriousme/openapi-schema-validator';
    import { readFileSync } from 'node:fs';
    const result = await new Validator().validate(JSON.parse(readFileSync(process.argv[1], 'utf8')));
    process.stdout.write(JSON.stringify({ valid: result.valid, errors: result.errors }));
  `;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script, file], {
    cwd: join(__dirname, '../..'),
    encoding: 'utf8',
  });
  rmSync(dir, { recursive: true, force: true });
  if (run.status !== 0) throw new Error(`validator failed to run: ${run.stderr}`);
  return JSON.parse(run.stdout) as { valid: boolean; errors?: unknown };
}

type Doc = {
  openapi: string;
  paths: Record<
    string,
    Record<
      string,
      {
        description?: string;
        responses?: Record<
          string,
          {
            content?: Record<
              string,
              {
                schema?: { $ref?: string };
                examples?: Record<string, { value: { error: { code: string } } }>;
              }
            >;
          }
        >;
      }
    >
  >;
};

/** The paths of the spec's "Endpoints" section in its order, as the public document lists them. */
const SPEC_PATHS = [
  '/api/v1/usage',
  '/api/v1/backlinks',
  '/api/v1/keyword-research',
  '/api/v1/keyword-research/locations',
  '/api/v1/site-audit',
  '/api/v1/jobs/{job_id}',
  '/api/v1/jobs',
  '/api/v1/rank/keywords',
  '/api/v1/rank/history',
  '/api/v1/gsc/properties',
  '/api/v1/gsc/queries',
  '/api/v1/ai-visibility/projects',
  '/api/v1/ai-visibility/share-of-voice',
];

describe('OpenAPI documents: public /docs and admin /admin/docs (issue 15)', () => {
  let t: TestApp;
  let publicDoc: Doc;
  let adminDoc: Doc;

  beforeAll(async () => {
    t = await createTestApp();
    const pub = await request(t.url).get('/docs/openapi.json');
    expect(pub.status).toBe(200);
    publicDoc = pub.body as Doc;
    const adm = await request(t.url)
      .get('/admin/docs/openapi.json')
      .set('Authorization', `Bearer ${ADMIN_TOKEN()}`);
    expect(adm.status).toBe(200);
    adminDoc = adm.body as Doc;
  });
  afterAll(() => t.close());

  it('both documents are valid OpenAPI 3', () => {
    for (const doc of [publicDoc, adminDoc]) {
      const result = validateOpenApi(doc);
      if (!result.valid) console.error(JSON.stringify(result.errors, null, 2).slice(0, 4000));
      expect(result.valid).toBe(true);
      expect(doc.openapi).toMatch(/^3\./);
    }
  });

  it('the public document holds /api/v1 only: no admin, account, oauth, mcp, health, metrics path', () => {
    const paths = Object.keys(publicDoc.paths);
    expect(paths.length).toBeGreaterThan(0);
    for (const p of paths) expect(p).toMatch(/^\/api\/v1\//);
    const text = JSON.stringify(publicDoc);
    for (const word of ['/admin', '/account', '/oauth', '/mcp', '/metrics', '/health']) {
      expect(text).not.toContain(`"${word}`);
    }
  });

  it("describes every public route of the spec, in the spec's order, with its error responses", () => {
    const paths = Object.keys(publicDoc.paths);
    // The spec's "Endpoints" section, in its order (GET /jobs, an extension, after /jobs/{job_id}),
    // ahead of any later addition.
    expect(paths.slice(0, SPEC_PATHS.length)).toEqual(SPEC_PATHS);
    for (const e of declaredEndpoints()) {
      const op = publicDoc.paths[e.path]?.[e.method];
      expect({ route: `${e.method} ${e.path}`, described: op !== undefined }).toEqual({
        route: `${e.method} ${e.path}`,
        described: true,
      });
      const statuses = Object.keys(op.responses ?? {});
      const expected = endpointErrors(e).map((name) =>
        String(ERROR_STATUS[ERROR_EXAMPLES[name].code]),
      );
      expect({
        route: `${e.method} ${e.path}`,
        statuses: statuses.filter((s) => s >= '400'),
      }).toEqual({
        route: `${e.method} ${e.path}`,
        statuses: [...new Set(expected)].sort(),
      });
      expect(statuses.filter((s) => s.startsWith('2'))).toHaveLength(1);
    }
  });

  it('every operation: a description with its cost, a named success schema, one example per spec code of each error status', () => {
    const specCodes = new Set([
      'BAD_REQUEST',
      'UNAUTHORIZED',
      'PAYMENT_REQUIRED',
      'FORBIDDEN',
      'NOT_FOUND',
      'ALREADY_RUNNING',
      'VALIDATION_ERROR',
      'UNSUPPORTED_LOCATION',
      'RATE_LIMITED',
      'QUOTA_EXCEEDED',
      'UPSTREAM_ERROR',
      'SERVER_ERROR',
    ]);
    for (const e of declaredEndpoints()) {
      const op = publicDoc.paths[e.path][e.method];
      const route = `${e.method} ${e.path}`;
      const cost = `**Cost:** ${e.declaration.cost}`;
      expect({ route, cost: op.description?.includes(cost) }).toEqual({
        route,
        cost: true,
      });
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        const media = response.content?.['application/json'];
        expect({ route, status, ref: media?.schema?.$ref }).toEqual({
          route,
          status,
          ref: expect.stringMatching(/^#\/components\/schemas\/[A-Za-z]+$/),
        });
        if (Number(status) < 400) continue;
        const codes = Object.values(media?.examples ?? {}).map((x) => x.value.error.code);
        expect(codes.length).toBeGreaterThan(0);
        for (const code of codes) {
          // 415 has no code in the spec's table; every other status shows the spec's codes
          if (status !== '415')
            expect({ route, status, code, spec: specCodes.has(code) }).toEqual({
              route,
              status,
              code,
              spec: true,
            });
          expect(ERROR_STATUS[code as keyof typeof ERROR_STATUS]).toBe(Number(status));
        }
      }
    }
  });

  it('names its server, and calls the bearer an opaque API key (not a JWT)', () => {
    const doc = publicDoc as unknown as {
      servers?: Array<{ url: string }>;
      components: { securitySchemes: Record<string, { bearerFormat?: string }> };
    };
    expect(doc.servers?.map((s) => s.url)).toEqual([t.config.publicBaseUrl]);
    expect(doc.components.securitySchemes.bearer.bearerFormat).not.toMatch(/JWT/i);
  });

  it('the admin document holds the admin API only', () => {
    const paths = Object.keys(adminDoc.paths);
    expect(paths).toContain('/admin/v1/accounts');
    for (const p of paths) expect(p).toMatch(/^\/admin\/v1\//);
  });

  it('/admin/docs needs the admin token (401 envelope); ?token= gives a cookie that opens it', async () => {
    for (const path of ['/admin/docs', '/admin/docs/openapi.json']) {
      const res = await request(t.url).get(path);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ success: false, error: { code: 'UNAUTHORIZED' } });
    }
    const wrong = await request(t.url).get('/admin/docs?token=wrong-token-0123456789');
    expect(wrong.status).toBe(401);
    const login = await request(t.url).get(`/admin/docs/?token=${ADMIN_TOKEN()}`).redirects(0);
    expect(login.status).toBe(303);
    expect(login.headers.location).toBe('/admin/docs/');
    const cookie = String(login.headers['set-cookie']);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).not.toContain(ADMIN_TOKEN());
    const page = await request(t.url).get('/admin/docs/').set('Cookie', cookie.split(';')[0]);
    expect(page.status).toBe(200);
    expect(page.text).toContain('swagger');
    const forged = await request(t.url)
      .get('/admin/docs/openapi.json')
      .set('Cookie', `ops_session=${Math.floor(Date.now() / 1000) + 600}.${'A'.repeat(43)}`);
    expect(forged.status).toBe(401);
  });

  it('the public /docs page stays open', async () => {
    const res = await request(t.url).get('/docs');
    expect(res.status).toBe(200);
    expect(res.text).toContain('<title>API reference · SEO data API</title>');
    expect(res.text).toContain('id="getUsage"');
  });
});
