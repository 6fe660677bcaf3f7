import { connect } from 'node:net';
import type { TestingModule } from '@nestjs/testing';
import request from 'supertest';
import { CallMeterService } from '@app/billing';
import { plainDate } from '@app/core';
import { declaredEndpoints, requestHash } from '@app/gateway';
import { AdminClient, Plan, TestAccount, bearer } from '../helpers/fixtures';
import {
  AnswerValidator,
  OpenApiDoc,
  aiProjectBody,
  answerCalls,
} from '../helpers/openapi-answers';
import { createTestApp, TestApp } from '../helpers/test-app';
import { FakeDataForSeo } from '../fixtures/fake-dataforseo';
import { FixtureSite, closedPort, startFixtureSite } from '../site-audit/fixture-site';
import { POLLING_OVERRIDES, startWorker, waitForJob } from '../site-audit/site-audit-helpers';
import { YourDataAdmin, scanBody } from '../your-data/your-data-fixtures';

type Answer = { status: number; body: Record<string, unknown> };

/** One HTTP/1.1 request written as given (for what supertest cannot send: a malformed header). */
function rawRequest(url: string, text: string): Promise<Answer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(text));
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (data += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1]);
      resolve({ status, body: JSON.parse(data.slice(data.indexOf('\r\n\r\n') + 4)) });
    });
  });
}

/**
 * Issue 25: the served /docs/openapi.json describes what the API really answers. Every public
 * operation is called on a running instance for its success answer and for each error its
 * document promises (one example per spec code), and each answer is validated against the
 * document with ajv, with objects closed, so an undocumented member fails as well as a
 * missing or mistyped one. The last test checks that nothing the document promises went
 * unexercised.
 */
describe('OpenAPI: every real answer matches the served document (issue 25)', () => {
  const fake = new FakeDataForSeo();
  let t: TestApp;
  let admin: AdminClient;
  let yd: YourDataAdmin;
  let worker: TestingModule;
  let site: FixtureSite;
  let v: AnswerValidator;
  let acc: TestAccount;
  const seen = new Set<string>();

  /** Validates `res` as the answer of the operation and records what it exercised. */
  function documented(method: string, path: string, res: Answer, status: number): void {
    expect({ op: `${method} ${path}`, status: res.status, body: res.body }).toMatchObject({
      status,
    });
    expect(v.problems(method, path, res.status, res.body)).toEqual([]);
    const code = (res.body.error as { code?: string } | undefined)?.code;
    seen.add(`${method} ${path} ${res.status}${res.status >= 400 ? ` ${code}` : ''}`);
  }

  const account = (plan: Plan, overrides: Record<string, unknown>) =>
    admin.account(plan, overrides);
  const get = (key: string | null, path: string, query: Record<string, unknown> = {}) => {
    const r = request(t.url).get(path).query(query);
    return key ? r.set(bearer(key)) : r;
  };
  const post = (key: string | null, path: string, body: unknown) => {
    const r = request(t.url)
      .post(path)
      .send(body as object);
    return key ? r.set(bearer(key)) : r;
  };
  const patch = (key: string | null, path: string, body: unknown) => {
    const r = request(t.url)
      .patch(path)
      .send(body as object);
    return key ? r.set(bearer(key)) : r;
  };
  const del = (key: string | null, path: string) => {
    const r = request(t.url).delete(path);
    return key ? r.set(bearer(key)) : r;
  };

  // Ids filled in by beforeAll: the account's own data and another account's.
  const ids = {
    project: 0,
    keyword: 0,
    property: 0,
    aiProject: 0,
    aiEmpty: 0,
    spareProject: 0,
    spareKeyword: 0,
    spareAiProject: 0,
  };
  const foreign = { project: 0, keyword: 0, property: 0, aiProject: 0 };

  /** A valid call of each public operation, for the account given. */
  const calls = answerCalls({ get, post, patch, del, siteOrigin: () => site.origin, ids });
  /** Every declared public route (@Endpoint); endpoint-declarations checks each has a call. */
  const operations = declaredEndpoints().map((e) => ({
    key: `${e.method} ${e.path}`,
    method: e.method,
    path: e.path,
    group: e.declaration.group,
    status: e.declaration.status ?? 200,
  }));
  const yourDataOps = operations.filter((o) => o.group === 'your-data');

  beforeAll(async () => {
    await fake.start();
    fake.slowMs = 1500;
    site = await startFixtureSite({ articles: 3 });
    t = await createTestApp({
      env: fake.env({
        DATAFORSEO_TIMEOUT_MS: '3000',
        AUDIT_ALLOW_PRIVATE_NETWORKS: 'true',
        AUDIT_POLITENESS_DELAY_MS: '0',
      }),
    });
    admin = new AdminClient(t.url);
    yd = new YourDataAdmin(admin);
    worker = await startWorker(t.config, t.clock);
    const docRes = await request(t.url).get('/docs/openapi.json');
    expect(docRes.status).toBe(200);
    v = new AnswerValidator(docRes.body as OpenApiDoc);

    // Room for the AI-visibility projects the create calls make besides the fixtures' own.
    acc = await account('pro', { ...POLLING_OVERRIDES, ai_visibility_projects: 100 });
    await admin.credits(acc.id, 20);
    const today = plainDate(t.clock.now());
    const yesterday = plainDate(new Date(t.clock.now().getTime() - 86_400_000));
    ids.project = await yd.rankProject(acc.id, 'example.com', 'Example');
    ids.keyword = await yd.keyword(ids.project, 'running shoes');
    await yd.keyword(ids.project, 'never checked');
    // What the delete calls remove: a project, and a keyword of another project.
    ids.spareProject = await yd.rankProject(acc.id, 'spare.example.com', 'Spare');
    const spares = await yd.rankProject(acc.id, 'spare-keywords.example.com', 'Spare keywords');
    ids.spareKeyword = await yd.keyword(spares, 'spare keyword');
    await yd.checks(ids.keyword, [
      {
        check_date: yesterday,
        position: 9,
        landing_page: 'https://example.com/a',
        gsc_clicks: 3,
        gsc_impressions: 40,
        gsc_ctr: 7.5,
        gsc_average_position: 8.2,
      },
      { check_date: today, position: 4, featured_snippet: true },
    ]);
    ids.property = await yd.gscProperty(acc.id);
    await yd.gscRows(ids.property, [
      {
        date: today,
        query: 'shoes',
        page: 'https://example.com/a',
        country: 'usa',
        device: 'desktop',
        clicks: 4,
        impressions: 50,
        position: 3,
      },
    ]);
    ids.aiProject = await yd.aiProject(acc.id, 'example.com');
    await yd.scan(
      ids.aiProject,
      scanBody(yesterday, {
        competitors: [
          {
            competitor_name: 'Rival',
            competitor_domain: 'rival.com',
            mention_count: 12,
            visibility_score: 30,
            avg_position: 2,
          },
        ],
      }),
    );
    await yd.scan(ids.aiProject, scanBody(today, { visibility_score: 55 }));
    ids.aiEmpty = await yd.aiProject(acc.id, 'never-scanned.com');
    ids.spareAiProject = await yd.aiProject(acc.id, 'spare-ai.example.com');

    const other = await account('pro', POLLING_OVERRIDES);
    foreign.project = await yd.rankProject(other.id, 'other.com', 'Other');
    foreign.keyword = await yd.keyword(foreign.project, 'not yours');
    foreign.property = await yd.gscProperty(other.id, 'sc-domain:other.com');
    foreign.aiProject = await yd.aiProject(other.id, 'other.com');
  });

  afterAll(async () => {
    jest.restoreAllMocks();
    await worker?.close();
    await t?.close();
    await site?.close();
    await fake.close();
  });

  it('the paging of GET /rank/keywords is marked as an extension of the spec, the spec members not', () => {
    const op = v.doc.paths['/api/v1/rank/keywords'].get as unknown as {
      parameters: Array<{ name: string; 'x-spec-extension'?: boolean }>;
    };
    const marked = (name: string) =>
      op.parameters.find((p) => p.name === name)?.['x-spec-extension'];
    expect([marked('project_id'), marked('limit'), marked('offset')]).toEqual([
      undefined,
      undefined,
      true,
    ]);
    const meta = (
      v.doc as unknown as {
        components: {
          schemas: Record<string, { properties: { meta: { properties: Record<string, object> } } }>;
        };
      }
    ).components.schemas.RankKeywordsAnswer.properties.meta.properties;
    for (const name of ['offset', 'total', 'next'])
      expect(meta[name]).toMatchObject({ 'x-spec-extension': true });
    for (const name of ['project_id', 'limit'])
      expect(meta[name]).not.toHaveProperty('x-spec-extension');
  });

  it('the error examples of the document are themselves valid answers', () => {
    for (const { method, path } of operations) {
      for (const status of Object.keys(v.doc.paths[path][method].responses ?? {})) {
        const examples = v.response(method, path, Number(status))?.content?.['application/json']
          ?.examples;
        for (const example of Object.values(examples ?? {}))
          expect(v.problems(method, path, Number(status), example.value)).toEqual([]);
      }
    }
  });

  describe('success answers', () => {
    it('usage, locations, backlinks and keyword research', async () => {
      documented('get', '/api/v1/usage', await calls['get /api/v1/usage'](acc.key), 200);
      documented(
        'get',
        '/api/v1/keyword-research/locations',
        await calls['get /api/v1/keyword-research/locations'](acc.key),
        200,
      );
      for (const domain of ['example.com', 'https://www.example.com/x']) {
        // the second is a cache hit
        const res = await get(acc.key, '/api/v1/backlinks', { domain, limit: 5 });
        documented('get', '/api/v1/backlinks', res, 200);
      }
      const kw = await calls['post /api/v1/keyword-research'](acc.key);
      documented('post', '/api/v1/keyword-research', kw, 200);
      expect((kw.body.data as { related_keywords: unknown[] }).related_keywords.length).toBe(3);
    });

    it('site audit: the 202, then the job record queued or running, complete and failed', async () => {
      const accepted = await calls['post /api/v1/site-audit'](acc.key);
      documented('post', '/api/v1/site-audit', accepted, 202);
      const jobId = String(accepted.body.job_id);
      documented('get', '/api/v1/jobs/{job_id}', await get(acc.key, `/api/v1/jobs/${jobId}`), 200);
      const { final } = await waitForJob(t.url, acc.key, jobId, { intervalMs: 50 });
      expect(final.status).toBe('complete');
      documented('get', '/api/v1/jobs/{job_id}', await get(acc.key, `/api/v1/jobs/${jobId}`), 200);

      const port = await closedPort();
      const failing = await post(acc.key, '/api/v1/site-audit', {
        url: `http://127.0.0.1:${port}/`,
        max_pages: 2,
      });
      expect(failing.status).toBe(202);
      const failed = await waitForJob(t.url, acc.key, String(failing.body.job_id), {
        intervalMs: 50,
      });
      expect(failed.final.status).toBe('failed');
      documented(
        'get',
        '/api/v1/jobs/{job_id}',
        await get(acc.key, `/api/v1/jobs/${String(failing.body.job_id)}`),
        200,
      );
      // the jobs list (an extension of the spec) with complete and failed records
      const listed = await get(acc.key, '/api/v1/jobs', { limit: 100 });
      documented('get', '/api/v1/jobs', listed, 200);
      expect((listed.body.data as { count: number }).count).toBeGreaterThanOrEqual(2);
    });

    it('your-data: rank keywords and history, GSC properties and queries, AI projects and share of voice', async () => {
      for (const { key, method, path, status } of yourDataOps)
        documented(method, path, await calls[key](acc.key), status);
      // rank management (an extension): a project the account already has is answered 200,
      // with the body the document describes for the 201 (one success status per operation)
      const tracked = await post(acc.key, '/api/v1/rank/projects', { domain: 'example.com' });
      expect(tracked.status).toBe(200);
      expect(v.problems('post', '/api/v1/rank/projects', 201, tracked.body)).toEqual([]);
      // the other documented variants: one project's keywords, a never-scanned project
      const one = await get(acc.key, '/api/v1/rank/keywords', { project_id: ids.project });
      documented('get', '/api/v1/rank/keywords', one, 200);
      const keywords = (one.body.data as { keywords: Array<{ current_position: unknown }> })
        .keywords;
      expect(keywords.map((k) => k.current_position)).toEqual([4, null]);
      // paging (an extension): a page with a next link, and one past the end
      for (const query of [{ limit: 1 }, { limit: 1, offset: 1 }, { offset: 99 }]) {
        const page = await get(acc.key, '/api/v1/rank/keywords', query);
        documented('get', '/api/v1/rank/keywords', page, 200);
      }
      const empty = await get(acc.key, '/api/v1/ai-visibility/share-of-voice', {
        project_id: ids.aiEmpty,
      });
      documented('get', '/api/v1/ai-visibility/share-of-voice', empty, 200);
      expect((empty.body.data as { latest_snapshot: unknown }).latest_snapshot).toBeNull();
      const byPage = await get(acc.key, '/api/v1/gsc/queries', {
        property_id: ids.property,
        dim: 'page',
        sort: 'position',
        dir: 'asc',
      });
      documented('get', '/api/v1/gsc/queries', byPage, 200);
    });
  });

  describe('errors every operation can answer', () => {
    it('400 BAD_REQUEST: a malformed request (a header line without a colon; a body that is not JSON)', async () => {
      for (const { method, path } of operations) {
        const target = path.replace('{job_id}', 'job_3kTMd92jf8AbQx0PzLw1Rv');
        const res = await rawRequest(
          t.url,
          `${method.toUpperCase()} ${target} HTTP/1.1\r\nHost: localhost\r\nNot a header\r\n\r\n`,
        );
        documented(method, path, res, 400);
      }
      for (const path of ['/api/v1/keyword-research', '/api/v1/site-audit']) {
        const res = await request(t.url)
          .post(path)
          .set(bearer(acc.key))
          .set('Content-Type', 'application/json')
          .send('{"keyword": ');
        documented('post', path, res, 400);
      }
    });

    it('401 UNAUTHORIZED: no key, and a key that does not exist', async () => {
      for (const { key, method, path } of operations) {
        documented(method, path, await calls[key](null), 401);
        documented(method, path, await calls[key](`seo_live_${'x'.repeat(43)}`), 401);
      }
    });

    it('403 FORBIDDEN: a plan without API access', async () => {
      const free = await account('free', POLLING_OVERRIDES);
      for (const { key, method, path } of operations)
        documented(method, path, await calls[key](free.key), 403);
    });

    it('429 RATE_LIMITED: the per-minute limit of each endpoint', async () => {
      const limited = await account('pro', {
        requests_per_minute: 1,
        api_calls_per_month: 'unlimited',
      });
      for (const { key, method, path } of operations) {
        await calls[key](limited.key);
        const res = await calls[key](limited.key);
        documented(method, path, res, 429);
        expect(res.body.meta).toMatchObject({ limit: 1, retry_after: expect.any(Number) });
      }
    });

    it('429 RATE_LIMITED: the monthly allowance, on every endpoint but the your-data ones', async () => {
      const spent = await account('pro', { api_calls_per_month: 0, requests_per_minute: 100_000 });
      for (const { key, method, path } of operations) {
        const res = await calls[key](spent.key);
        if (yourDataOps.some((o) => o.key === key)) {
          expect(res.status).not.toBe(429); // never refused at the monthly cap
          continue;
        }
        documented(method, path, res, 429);
        expect(res.body.meta).toHaveProperty('resets_at');
      }
    });

    it('500 SERVER_ERROR: a fault inside the service (the meter store failing once), safe message', async () => {
      const spy = jest.spyOn(CallMeterService.prototype, 'consume');
      for (const { key, method, path } of operations) {
        spy.mockRejectedValueOnce(new Error('injected fault: meter store unavailable'));
        const res = await calls[key](acc.key);
        documented(method, path, res, 500);
        expect(JSON.stringify(res.body)).not.toContain('injected');
      }
      spy.mockRestore();
    });
  });

  describe('errors of particular operations', () => {
    it('404 NOT_FOUND: an unknown job, and a project, keyword or property of another account', async () => {
      documented(
        'get',
        '/api/v1/jobs/{job_id}',
        await get(acc.key, '/api/v1/jobs/job_3kTMd92jf8AbQx0PzLw1Rv'),
        404,
      );
      const cases: Array<[string, Record<string, unknown>]> = [
        ['/api/v1/rank/keywords', { project_id: foreign.project }],
        ['/api/v1/rank/history', { keyword_id: foreign.keyword }],
        ['/api/v1/gsc/queries', { property_id: foreign.property }],
        ['/api/v1/ai-visibility/share-of-voice', { project_id: foreign.aiProject }],
      ];
      for (const [path, query] of cases)
        documented('get', path, await get(acc.key, path, query), 404);
      const writes: Array<[string, string, () => Promise<Answer>]> = [
        [
          'patch',
          '/api/v1/rank/projects/{project_id}',
          () => patch(acc.key, `/api/v1/rank/projects/${foreign.project}`, { name: 'x' }),
        ],
        [
          'delete',
          '/api/v1/rank/projects/{project_id}',
          () => del(acc.key, `/api/v1/rank/projects/${foreign.project}`),
        ],
        [
          'post',
          '/api/v1/rank/projects/{project_id}/keywords',
          () =>
            post(acc.key, `/api/v1/rank/projects/${foreign.project}/keywords`, { keywords: ['a'] }),
        ],
        [
          'patch',
          '/api/v1/rank/keywords/{keyword_id}',
          () => patch(acc.key, `/api/v1/rank/keywords/${foreign.keyword}`, { status: 'paused' }),
        ],
        [
          'delete',
          '/api/v1/rank/keywords/{keyword_id}',
          () => del(acc.key, `/api/v1/rank/keywords/${foreign.keyword}`),
        ],
        [
          'get',
          '/api/v1/ai-visibility/projects/{project_id}/settings',
          () => get(acc.key, `/api/v1/ai-visibility/projects/${foreign.aiProject}/settings`),
        ],
        [
          'patch',
          '/api/v1/ai-visibility/projects/{project_id}',
          () =>
            patch(acc.key, `/api/v1/ai-visibility/projects/${foreign.aiProject}`, {
              tracking_frequency: 'daily',
            }),
        ],
        [
          'delete',
          '/api/v1/ai-visibility/projects/{project_id}',
          () => del(acc.key, `/api/v1/ai-visibility/projects/${foreign.aiProject}`),
        ],
      ];
      for (const [method, path, call] of writes) documented(method, path, await call(), 404);
    });

    it('422 VALIDATION_ERROR: a missing or invalid parameter of each operation that takes one', async () => {
      const cases: Array<[string, string, () => Promise<Answer>]> = [
        ['get', '/api/v1/backlinks', () => get(acc.key, '/api/v1/backlinks')],
        ['post', '/api/v1/keyword-research', () => post(acc.key, '/api/v1/keyword-research', {})],
        [
          'post',
          '/api/v1/site-audit',
          () => post(acc.key, '/api/v1/site-audit', { url: 'https://example.com/', depth: 9 }),
        ],
        [
          'get',
          '/api/v1/jobs/{job_id}',
          () => get(acc.key, '/api/v1/jobs/job_3kTMd92jf8AbQx0PzLw1Rv', { wait: 'abc' }),
        ],
        ['get', '/api/v1/jobs', () => get(acc.key, '/api/v1/jobs', { status: 'bogus' })],
        ['get', '/api/v1/rank/keywords', () => get(acc.key, '/api/v1/rank/keywords', { limit: 0 })],
        ['get', '/api/v1/rank/history', () => get(acc.key, '/api/v1/rank/history')],
        [
          'get',
          '/api/v1/gsc/queries',
          () => get(acc.key, '/api/v1/gsc/queries', { property_id: 'abc' }),
        ],
        [
          'get',
          '/api/v1/ai-visibility/share-of-voice',
          () => get(acc.key, '/api/v1/ai-visibility/share-of-voice'),
        ],
        ['post', '/api/v1/rank/projects', () => post(acc.key, '/api/v1/rank/projects', {})],
        [
          'patch',
          '/api/v1/rank/projects/{project_id}',
          () => patch(acc.key, `/api/v1/rank/projects/${ids.project}`, { match: 'exact' }),
        ],
        [
          'post',
          '/api/v1/rank/projects/{project_id}/keywords',
          () => post(acc.key, `/api/v1/rank/projects/${ids.project}/keywords`, { keywords: [] }),
        ],
        [
          'patch',
          '/api/v1/rank/keywords/{keyword_id}',
          () => patch(acc.key, `/api/v1/rank/keywords/${ids.keyword}`, { status: 'error' }),
        ],
        [
          'post',
          '/api/v1/ai-visibility/projects',
          () =>
            post(acc.key, '/api/v1/ai-visibility/projects', {
              ...aiProjectBody('invalid.example.com'),
              ai_engine: 'bing',
            }),
        ],
        [
          'patch',
          '/api/v1/ai-visibility/projects/{project_id}',
          () =>
            patch(acc.key, `/api/v1/ai-visibility/projects/${ids.aiProject}`, {
              tracking_frequency: 'hourly',
            }),
        ],
      ];
      for (const [method, path, call] of cases) {
        const res = await call();
        documented(method, path, res, 422);
        expect((res.body.error as { details: unknown[] }).details).toHaveLength(1);
      }
    });

    it('422 UNSUPPORTED_LOCATION on keyword research', async () => {
      const res = await post(acc.key, '/api/v1/keyword-research', {
        keyword: 'shoes',
        location_code: 9999,
      });
      documented('post', '/api/v1/keyword-research', res, 422);
      expect((res.body.error as { code: string }).code).toBe('UNSUPPORTED_LOCATION');
    });

    it('415: a body that is not JSON', async () => {
      for (const path of ['/api/v1/keyword-research', '/api/v1/site-audit']) {
        const res = await request(t.url)
          .post(path)
          .set(bearer(acc.key))
          .type('form')
          .send('keyword=shoes&url=https://example.com/');
        documented('post', path, res, 415);
      }
    });

    it('Idempotency-Key on each POST: the replay, 422 for another body, 409 while the first runs', async () => {
      const keyed = (path: string, key: string, body: unknown) =>
        post(acc.key, path, body).set('Idempotency-Key', key);
      const bodies: Record<string, [unknown, unknown]> = {
        '/api/v1/keyword-research': [{ keyword: 'shoes' }, { keyword: 'boots' }],
        '/api/v1/site-audit': [
          { url: `${site.origin}/`, max_pages: 5, depth: 2 },
          { url: `${site.origin}/`, max_pages: 6, depth: 2 },
        ],
        '/api/v1/rank/projects': [{ domain: 'keyed.example.com' }, { domain: 'other.example.com' }],
        [`/api/v1/rank/projects/${ids.project}/keywords`]: [
          { keywords: ['keyed keyword'] },
          { keywords: ['other keyword'] },
        ],
        '/api/v1/ai-visibility/projects': [
          aiProjectBody('keyed-ai.example.com'),
          aiProjectBody('other-ai.example.com'),
        ],
      };
      for (const [path, [body, other]] of Object.entries(bodies)) {
        const key = `openapi-${path}`;
        const first = await keyed(path, key, body);
        const replay = await keyed(path, key, body);
        expect(replay.headers['idempotent-replayed']).toBe('true');
        // The operation, and the route and path parameters the guard keeps with the key.
        const projectId = /\/rank\/projects\/(\d+)\//.exec(path)?.[1];
        const at = (name: string) => path.replace(`/projects/${projectId}/`, `/projects/${name}/`);
        const op = projectId ? at('{project_id}') : path;
        const route = projectId ? at(':project_id') : path;
        const params: Record<string, string> = projectId ? { project_id: projectId } : {};
        documented('post', op, replay, first.status);
        documented('post', op, await keyed(path, key, other), 422);
        // A claim still running (as a request in flight holds it).
        const now = t.clock.now();
        await t.db.query(
          `INSERT INTO idempotency_keys (account_id, key, route, request_hash, state, claim, locked_until, created_at, expires_at)
           VALUES ($1, $2, $3, $4, 'running', gen_random_uuid(), $5, $6, $7)`,
          [
            acc.id,
            `${key}-running`,
            `POST ${route}`,
            requestHash({ params, query: {}, body }),
            new Date(now.getTime() + 60_000),
            now,
            new Date(now.getTime() + 86_400_000),
          ],
        );
        const running = await keyed(path, `${key}-running`, body);
        documented('post', op, running, 409);
        expect((running.body.error as { code: string }).code).toBe('ALREADY_RUNNING');
      }
    });

    it('402 PAYMENT_REQUIRED and 429 QUOTA_EXCEEDED: feature quota used up', async () => {
      const none = await account('pro', { ...POLLING_OVERRIDES, backlinks_per_month: 0 });
      documented('get', '/api/v1/backlinks', await calls['get /api/v1/backlinks'](none.key), 402);
      const noKeywords = await account('pro', {
        ...POLLING_OVERRIDES,
        keyword_research_per_month: 0,
        site_audit_crawls_per_month: 0,
      });
      documented(
        'post',
        '/api/v1/keyword-research',
        await calls['post /api/v1/keyword-research'](noKeywords.key),
        429,
      );
      const audit = await calls['post /api/v1/site-audit'](noKeywords.key);
      documented('post', '/api/v1/site-audit', audit, 429);
      expect(audit.body.meta).toMatchObject({ quota: 'site_audit_crawls_per_month' });
      // rank management (an extension): a batch past the tracked_keywords limit
      const full = await account('pro', { ...POLLING_OVERRIDES, tracked_keywords: 1 });
      const project = await yd.rankProject(full.id, 'full.example.com', 'Full');
      const refused = await post(full.key, `/api/v1/rank/projects/${project}/keywords`, {
        keywords: ['one', 'two'],
      });
      documented('post', '/api/v1/rank/projects/{project_id}/keywords', refused, 402);
      expect(refused.body.meta).toMatchObject({ limit: 1, used: 0, requested: 2 });
      // AI-visibility management (an extension): past the prompts per project, on create and change
      const few = await account('pro', {
        ...POLLING_OVERRIDES,
        ai_visibility_prompts_per_project: 1,
      });
      const tooMany = await post(
        few.key,
        '/api/v1/ai-visibility/projects',
        aiProjectBody('few.com'),
      );
      documented('post', '/api/v1/ai-visibility/projects', tooMany, 402);
      expect(tooMany.body.meta).toMatchObject({ limit: 1, used: 0, requested: 2 });
      const one = await post(few.key, '/api/v1/ai-visibility/projects', {
        ...aiProjectBody('few.com'),
        prompts: ['one prompt only'],
      });
      expect(one.status).toBe(201);
      const grown = await patch(
        few.key,
        `/api/v1/ai-visibility/projects/${(one.body.data as { id: number }).id}`,
        { prompts: ['one prompt only', 'and a second'] },
      );
      documented('patch', '/api/v1/ai-visibility/projects/{project_id}', grown, 402);
      expect(grown.body.meta).toMatchObject({ limit: 1, used: 1, requested: 2 });
    });

    it('409 ALREADY_RUNNING: the same research twice at once; 502 UPSTREAM_ERROR: no data upstream', async () => {
      const pairs: Array<[string, string, () => Promise<Answer>]> = [
        [
          'get',
          '/api/v1/backlinks',
          () => get(acc.key, '/api/v1/backlinks', { domain: 'slow-site.com' }),
        ],
        [
          'post',
          '/api/v1/keyword-research',
          () => post(acc.key, '/api/v1/keyword-research', { keyword: 'slow brew' }),
        ],
      ];
      for (const [method, path, call] of pairs) {
        const [a, b] = await Promise.all([
          call(),
          new Promise((r) => setTimeout(r, 300)).then(call),
        ]);
        const conflict = a.status === 409 ? a : b;
        documented(method, path, conflict, 409);
        documented(method, path, conflict === a ? b : a, 200);
      }
      documented(
        'get',
        '/api/v1/backlinks',
        await get(acc.key, '/api/v1/backlinks', { domain: 'nodata.com' }),
        502,
      );
      documented(
        'post',
        '/api/v1/keyword-research',
        await post(acc.key, '/api/v1/keyword-research', { keyword: 'nodata here' }),
        502,
      );
    });
  });

  it('every status and error code the document promises was answered for real', () => {
    const missing = v.promises().filter((p) => !seen.has(p));
    expect(missing).toEqual([]);
  });
});
