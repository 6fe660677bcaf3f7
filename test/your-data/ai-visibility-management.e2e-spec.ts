import request from 'supertest';
import { Sql } from '@app/database';
import { signIn } from '../helpers/account-session';
import { AdminClient, Plan, TestAccount, bearer } from '../helpers/fixtures';
import { aiProjectBody } from '../helpers/openapi-answers';
import { TestApp, createTestApp } from '../helpers/test-app';
import { GENEROUS, YourDataAdmin, expectOk, scanBody } from './your-data-fixtures';

type Res = request.Response;
type Method = 'get' | 'post' | 'patch' | 'delete';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const SETTINGS_MEMBERS = [
  'project_id',
  'brand_aliases',
  'prompts',
  'competitors',
  'ai_engine',
  'tracking_frequency',
  'next_scan_at',
];

/**
 * AI-visibility management (docs/ai-visibility-management.md; the contract's "AI visibility:
 * management and scans" and "Rules shared by every route below"): the public routes with
 * the API key, the same operations in the account area with the console's reads (scores,
 * latest answers), the plan limits ai_visibility_projects and
 * ai_visibility_prompts_per_project (exact under concurrency) and the usage view.
 */
describe('AI-visibility management: /api/v1/ai-visibility/projects writes and /account/v1', () => {
  let t: TestApp;
  let admin: AdminClient;
  let yd: YourDataAdmin;
  let sql: Sql;

  beforeAll(async () => {
    t = await createTestApp();
    admin = new AdminClient(t.url);
    yd = new YourDataAdmin(admin);
    sql = t.app.get(Sql);
  });
  afterAll(async () => {
    await t?.close();
  });

  const api = (acc: TestAccount, method: Method, path: string, body?: unknown): Promise<Res> => {
    const req = request(t.url)[method](`/api/v1${path}`).set(bearer(acc.key));
    return (body === undefined ? req : req.send(body as object)) as unknown as Promise<Res>;
  };
  const account = (plan: Plan = 'pro', overrides: Record<string, unknown> = {}) =>
    admin.account(plan, { ...GENEROUS, ...overrides });
  async function create(acc: TestAccount, body: Record<string, unknown>) {
    const res = await api(acc, 'post', '/ai-visibility/projects', body);
    expectOk(res, 201);
    return res.body.data as { id: number } & Record<string, unknown>;
  }
  const projectCount = async (accountId: number) =>
    (await sql.one<{ n: number }>(
      `SELECT count(*)::int AS n FROM ai_visibility_projects WHERE account_id = $1`,
      [accountId],
    ))!.n;
  const fields = (res: Res) =>
    (res.body.error?.details as Array<{ field: string }> | undefined)?.map((d) => d.field);

  describe('create, read, change, delete', () => {
    it('POST creates (201) the spec’s project plus prompts, aliases, competitors; normalised; due now', async () => {
      const acc = await account();
      const before = t.clock.now();
      const res = await api(acc, 'post', '/ai-visibility/projects', {
        ...aiProjectBody('  HTTPS://WWW.Shoe-Shop.COM:8443/path?x=1 '),
        target_country: 'gb',
        ai_engine: ' Perplexity ',
        tracking_frequency: 'DAILY',
        prompts: ['  best   running shoes ', 'trail shoes for wet rock'],
        competitors: [{ name: 'Rival', domain: 'https://www.Rival.com/shoes' }],
      });
      expect(res.status).toBe(201);
      expect(Object.keys(res.body.data)).toEqual([
        'id',
        'domain',
        'brand_name',
        'target_country',
        'target_language',
        'ai_engine',
        'tracking_frequency',
        'status',
        'visibility_score',
        'previous_visibility_score',
        'score_change',
        'created_at',
        'updated_at',
        'prompts',
        'brand_aliases',
        'competitors',
      ]);
      expect(res.body.data).toMatchObject({
        domain: 'shoe-shop.com',
        brand_name: 'Example',
        target_country: 'GB',
        target_language: 'en',
        ai_engine: 'perplexity',
        tracking_frequency: 'daily',
        status: 'active',
        visibility_score: null,
        previous_visibility_score: null,
        score_change: null,
        prompts: ['best running shoes', 'trail shoes for wet rock'],
        brand_aliases: ['Example Inc'],
        competitors: [{ name: 'Rival', domain: 'rival.com' }],
      });
      expect(res.body.data.created_at).toMatch(TIMESTAMP);
      // The same record in the spec's list, and its settings: due for its first scan now.
      const list = await api(acc, 'get', '/ai-visibility/projects');
      expect(list.body.data.projects.map((p: { id: number }) => p.id)).toEqual([res.body.data.id]);
      const settings = await api(
        acc,
        'get',
        `/ai-visibility/projects/${res.body.data.id}/settings`,
      );
      expect(settings.status).toBe(200);
      expect(Object.keys(settings.body.data)).toEqual(SETTINGS_MEMBERS);
      expect(settings.body.data).toMatchObject({
        project_id: res.body.data.id,
        prompts: ['best running shoes', 'trail shoes for wet rock'],
        ai_engine: 'perplexity',
        tracking_frequency: 'daily',
      });
      const due = new Date(`${settings.body.data.next_scan_at.replace(' ', 'T')}Z`).getTime();
      expect(Math.abs(due - before.getTime())).toBeLessThan(5000);
    });

    it('PATCH changes any member (answers the settings); the prompts make it due now; DELETE removes it', async () => {
      const acc = await account('agency');
      const p = await create(acc, aiProjectBody('patch.com'));
      await sql.run(
        `UPDATE ai_visibility_projects SET next_scan_at = now() + interval '3 days' WHERE id = $1`,
        [p.id],
      );
      // The frequency, and the prompts and engine sent again unchanged (as the console does).
      const freq = await api(acc, 'patch', `/ai-visibility/projects/${p.id}`, {
        tracking_frequency: 'daily',
        brand_aliases: ['Patchy'],
        prompts: aiProjectBody('patch.com').prompts,
        ai_engine: 'chatgpt',
      });
      expect(freq.status).toBe(200);
      expect(Object.keys(freq.body.data)).toEqual(SETTINGS_MEMBERS);
      expect(freq.body.data).toMatchObject({
        tracking_frequency: 'daily',
        brand_aliases: ['Patchy'],
      });
      const later = freq.body.data.next_scan_at as string;
      // Leaves the next scan where it was.
      expect(new Date(`${later.replace(' ', 'T')}Z`).getTime()).toBeGreaterThan(
        t.clock.now().getTime() + 86_400_000,
      );
      const prompts = await api(acc, 'patch', `/ai-visibility/projects/${p.id}`, {
        prompts: ['a brand new question'],
        competitors: [],
      });
      expect(prompts.body.data).toMatchObject({
        prompts: ['a brand new question'],
        competitors: [],
      });
      expect(
        new Date(`${(prompts.body.data.next_scan_at as string).replace(' ', 'T')}Z`).getTime(),
      ).toBeLessThan(t.clock.now().getTime() + 5000);
      const renamed = await api(acc, 'patch', `/ai-visibility/projects/${p.id}`, {
        brand_name: 'Renamed',
        domain: 'www.renamed.com',
      });
      expect(renamed.status).toBe(200);
      const listed = await api(acc, 'get', '/ai-visibility/projects');
      expect(listed.body.data.projects[0]).toMatchObject({
        brand_name: 'Renamed',
        domain: 'renamed.com',
      });
      const gone = await api(acc, 'delete', `/ai-visibility/projects/${p.id}`);
      expect(gone.status).toBe(200);
      expect(gone.body.data).toEqual({ project_id: p.id, deleted: true });
      expect(await projectCount(acc.id)).toBe(0);
      expect((await api(acc, 'delete', `/ai-visibility/projects/${p.id}`)).status).toBe(404);
    });

    it('another account’s project (and a missing one, and a bad id) is 404 NOT_FOUND, nothing changed', async () => {
      const mine = await account();
      const theirs = await account();
      const p = await create(theirs, aiProjectBody('theirs.com'));
      for (const [method, path, body] of [
        ['get', `/ai-visibility/projects/${p.id}/settings`, undefined],
        ['patch', `/ai-visibility/projects/${p.id}`, { tracking_frequency: 'daily' }],
        ['delete', `/ai-visibility/projects/${p.id}`, undefined],
        ['get', '/ai-visibility/projects/999999999/settings', undefined],
        ['patch', '/ai-visibility/projects/abc', { tracking_frequency: 'daily' }],
        ['delete', '/ai-visibility/projects/0', undefined],
      ] as Array<[Method, string, unknown]>) {
        const res = await api(mine, method, path, body);
        expect({ path, status: res.status, code: res.body.error?.code }).toEqual({
          path,
          status: 404,
          code: 'NOT_FOUND',
        });
      }
      const still = await api(theirs, 'get', `/ai-visibility/projects/${p.id}/settings`);
      expect(still.body.data.tracking_frequency).toBe('weekly');
    });

    it('a second project of the same domain and engine is 422 on domain; another engine is fine', async () => {
      const acc = await account('agency');
      await create(acc, aiProjectBody('twice.com'));
      const again = await api(
        acc,
        'post',
        '/ai-visibility/projects',
        aiProjectBody('www.twice.com'),
      );
      expect(again.status).toBe(422);
      expect(fields(again)).toEqual(['domain']);
      await create(acc, { ...aiProjectBody('twice.com'), ai_engine: 'claude' });
      const other = await create(acc, aiProjectBody('other.com'));
      const clash = await api(acc, 'patch', `/ai-visibility/projects/${other.id}`, {
        domain: 'twice.com',
      });
      expect(clash.status).toBe(422);
      expect(fields(clash)).toEqual(['domain']);
      expect(await projectCount(acc.id)).toBe(3);
    });
  });

  describe('validation: 422 VALIDATION_ERROR, one message per field, nothing changed', () => {
    const cases: Array<[string, Record<string, unknown>, string[]]> = [
      [
        'nothing',
        {},
        [
          'domain',
          'brand_name',
          'target_country',
          'target_language',
          'ai_engine',
          'tracking_frequency',
          'prompts',
        ],
      ],
      ['an unknown engine', { ai_engine: 'bing' }, ['ai_engine']],
      ['an unknown frequency', { tracking_frequency: 'hourly' }, ['tracking_frequency']],
      ['an unsupported market', { target_country: 'XX' }, ['target_country']],
      ['a language the spec lacks', { target_language: 'xx' }, ['target_language']],
      ['no prompts', { prompts: [] }, ['prompts']],
      ['a short prompt', { prompts: ['ok?', 'no'] }, ['prompts']],
      ['a long prompt', { prompts: ['x'.repeat(501)] }, ['prompts']],
      ['repeated prompts', { prompts: ['Best shoes', ' best   SHOES '] }, ['prompts']],
      ['a prompt that is not text', { prompts: ['fine prompt', 42] }, ['prompts']],
      ['prompts not a list', { prompts: 'best shoes' }, ['prompts']],
      ['a control character', { prompts: ['nul \u0000 inside'] }, ['prompts']],
      ['a bad domain', { domain: 'not a domain' }, ['domain']],
      ['a hostile brand', { brand_name: '<script>\u0007</script>' }, ['brand_name']],
      ['an alias repeated', { brand_aliases: ['Ex', 'ex'] }, ['brand_aliases']],
      [
        '21 competitors',
        {
          competitors: Array.from({ length: 21 }, (_, i) => ({
            name: `C${i}`,
            domain: `c${i}.com`,
          })),
        },
        ['competitors'],
      ],
      [
        'a competitor without a domain',
        { competitors: [{ name: 'Rival' }] },
        ['competitors.0.domain'],
      ],
      ['a competitor that is a string', { competitors: ['rival.com'] }, ['competitors']],
      [
        'competitors of one domain',
        {
          competitors: [
            { name: 'A', domain: 'rival.com' },
            { name: 'B', domain: 'https://www.rival.com/' },
          ],
        },
        ['competitors.1.domain'],
      ],
      [
        'the project’s own domain as a competitor',
        { competitors: [{ name: 'Me', domain: 'WWW.valid.com' }] },
        ['competitors.0.domain'],
      ],
    ];
    it.each(cases)('%s', async (_what, change, expected) => {
      const acc = await account();
      const body = _what === 'nothing' ? {} : { ...aiProjectBody('valid.com'), ...change };
      const res = await api(acc, 'post', '/ai-visibility/projects', body);
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(fields(res)).toEqual(expected);
      expect(await projectCount(acc.id)).toBe(0);
    });

    it('PATCH: the same rules, and a domain change that meets a competitor', async () => {
      const acc = await account();
      const p = await create(acc, aiProjectBody('valid.com'));
      for (const [body, expected] of [
        [{ prompts: [] }, ['prompts']],
        [{ ai_engine: 'copilot' }, ['ai_engine']],
        [{ competitors: [{ name: 'Me', domain: 'valid.com' }] }, ['competitors.0.domain']],
        [{ domain: 'rival.com' }, ['domain']],
      ] as Array<[Record<string, unknown>, string[]]>) {
        const res = await api(acc, 'patch', `/ai-visibility/projects/${p.id}`, body);
        expect({ body, status: res.status, fields: fields(res) }).toEqual({
          body,
          status: 422,
          fields: expected,
        });
      }
      const settings = await api(acc, 'get', `/ai-visibility/projects/${p.id}/settings`);
      expect(settings.body.data).toMatchObject({
        ai_engine: 'chatgpt',
        competitors: [{ name: 'Rival', domain: 'rival.com' }],
      });
    });
  });

  describe('plan limits', () => {
    it('free and starter have no projects: 402 with meta.limit, used, requested', async () => {
      for (const plan of ['free', 'starter'] as const) {
        const acc = await account(plan);
        const person = await signIn(t.url, acc.id);
        const res = await person.post('/ai-visibility/projects', aiProjectBody('free.com'));
        expect(res.status).toBe(402);
        expect(res.body.error.code).toBe('PAYMENT_REQUIRED');
        expect(res.body.meta).toMatchObject({ limit: 0, used: 0, requested: 1 });
        expect(await projectCount(acc.id)).toBe(0);
      }
    });

    it('pro: 1 project of at most 25 prompts; agency 10 of 100; an override changes both', async () => {
      const pro = await account('pro');
      const prompts = (n: number) => Array.from({ length: n }, (_, i) => `question number ${i}`);
      const tooMany = await api(pro, 'post', '/ai-visibility/projects', {
        ...aiProjectBody('pro.com'),
        prompts: prompts(26),
      });
      expect(tooMany.status).toBe(402);
      expect(tooMany.body.meta).toMatchObject({ limit: 25, used: 0, requested: 26 });
      const p = await create(pro, { ...aiProjectBody('pro.com'), prompts: prompts(25) });
      const second = await api(pro, 'post', '/ai-visibility/projects', aiProjectBody('two.com'));
      expect(second.status).toBe(402);
      expect(second.body.meta).toMatchObject({ limit: 1, used: 1, requested: 1 });
      const grow = await api(pro, 'patch', `/ai-visibility/projects/${p.id}`, {
        prompts: prompts(26),
      });
      expect(grow.status).toBe(402);
      expect(grow.body.meta).toMatchObject({ limit: 25, used: 25, requested: 26 });
      expect(
        (await api(pro, 'get', `/ai-visibility/projects/${p.id}/settings`)).body.data.prompts,
      ).toHaveLength(25);

      const agency = await account('agency');
      await create(agency, { ...aiProjectBody('agency.com'), prompts: prompts(100) });
      const over = await api(agency, 'post', '/ai-visibility/projects', {
        ...aiProjectBody('agency2.com'),
        prompts: prompts(101),
      });
      expect(over.body.meta).toMatchObject({ limit: 100, requested: 101 });

      const overridden = await account('pro', {
        ai_visibility_projects: 2,
        ai_visibility_prompts_per_project: 30,
      });
      await create(overridden, { ...aiProjectBody('o1.com'), prompts: prompts(30) });
      await create(overridden, aiProjectBody('o2.com'));
      const third = await api(
        overridden,
        'post',
        '/ai-visibility/projects',
        aiProjectBody('o3.com'),
      );
      expect(third.body.meta).toMatchObject({ limit: 2, used: 2, requested: 1 });
      // The usage view shows both limits with what is used.
      const person = await signIn(t.url, overridden.id);
      const usage = await person.get('/usage');
      expect(usage.body.data.quotas).toMatchObject({
        ai_visibility_projects: { used: 2, limit: 2 },
        ai_visibility_prompts_per_project: { used: 30, limit: 30 },
      });
      const limits = await admin.get(`/accounts/${overridden.id}`);
      expect(JSON.stringify(limits.body)).toContain('ai_visibility_prompts_per_project');
    });

    it('exact under concurrency: 12 creates at once on a limit of 3 make exactly 3', async () => {
      const acc = await account('agency', { ai_visibility_projects: 3 });
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          api(acc, 'post', '/ai-visibility/projects', aiProjectBody(`race-${i}.com`)),
        ),
      );
      const statuses = results.map((r) => r.status).sort();
      expect(statuses.filter((s) => s === 201)).toHaveLength(3);
      expect(statuses.filter((s) => s === 402)).toHaveLength(9);
      for (const r of results.filter((x) => x.status === 402))
        expect(r.body.meta).toMatchObject({ limit: 3, used: 3, requested: 1 });
      expect(await projectCount(acc.id)).toBe(3);
      // The same domain and engine at once: one project, the others 422.
      const same = await account('agency');
      const twins = await Promise.all(
        Array.from({ length: 6 }, () =>
          api(same, 'post', '/ai-visibility/projects', aiProjectBody('twin.com')),
        ),
      );
      expect(twins.map((r) => r.status).sort()).toEqual([201, 422, 422, 422, 422, 422]);
    });

    it('the calls are your-data: counted, never refused at the monthly cap', async () => {
      const capped = await account('pro', { api_calls_per_month: 0 });
      const p = await create(capped, aiProjectBody('capped.com'));
      for (const [method, path, body] of [
        ['get', `/ai-visibility/projects/${p.id}/settings`],
        ['patch', `/ai-visibility/projects/${p.id}`, { tracking_frequency: 'daily' }],
        ['delete', `/ai-visibility/projects/${p.id}`],
      ] as Array<[Method, string, unknown?]>) {
        const res = await api(capped, method, path, body);
        expect([method, path, res.status]).toEqual([method, path, 200]);
      }
      // The four calls, in the your-data group of the usage history.
      const history = await (await signIn(t.url, capped.id)).get('/usage/history?days=1');
      const today = history.body.data.days.at(-1) as Record<string, number>;
      expect(today).toMatchObject({ your_data: 4, research: 0 });
    });
  });

  describe('the account area (/account/v1/ai-visibility, session cookie)', () => {
    it('the same operations with the same answers; the scores with the chart; the latest answers', async () => {
      const acc = await account();
      const person = await signIn(t.url, acc.id);
      const created = await person.post('/ai-visibility/projects', {
        ...aiProjectBody('console.com'),
        prompts: ['best running shoes', 'never asked yet'],
      });
      expect(created.status).toBe(201);
      const id = created.body.data.id as number;
      expect((await person.get('/ai-visibility/projects')).body.data.count).toBe(1);
      expect((await api(acc, 'get', `/ai-visibility/projects/${id}/settings`)).body.data).toEqual(
        (await person.get(`/ai-visibility/projects/${id}/settings`)).body.data,
      );
      const changed = await person.patch(`/ai-visibility/projects/${id}`, {
        tracking_frequency: 'daily',
      });
      expect(changed.body.data.tracking_frequency).toBe('daily');

      // Two stored scans: the chart has a bar each, on a 0-100 axis.
      await yd.scan(id, scanBody('2026-11-01', { visibility_score: 40 }));
      await yd.scan(id, scanBody('2026-11-02', { visibility_score: 100 }));
      const scores = await person.get(`/ai-visibility/projects/${id}/scores`);
      expect(scores.status).toBe(200);
      expect(
        scores.body.data.scores.map((s: { snapshot_date: string }) => s.snapshot_date),
      ).toEqual(['2026-11-01', '2026-11-02']);
      const chart = scores.body.data.chart;
      expect(chart.ticks.map((k: { label: string }) => k.label)).toEqual(['0', '50', '100']);
      expect(chart.bars).toHaveLength(2);
      expect(chart.bars[1].segments[0].y).toBeCloseTo(8, 0); // 100 fills the plot
      expect(chart.bars[0].title).toContain('visibility 40.0');

      // The latest answer to each prompt on the project's engine; a prompt never asked has none.
      await sql.run(
        `INSERT INTO ai_visibility_answers (account_id, project_id, scan_date, engine, prompt, status, answer,
           cited_urls, mentions, sentiment)
         VALUES ($1, $2, '2026-11-01', 'chatgpt', 'best running shoes', 'answered', 'old answer', '{}', '[]', NULL),
                ($1, $2, '2026-11-02', 'chatgpt', 'best running shoes', 'answered', 'Example beats Rival.',
                 '{https://example.com/a}', $3::jsonb, 0.5),
                ($1, $2, '2026-11-03', 'claude', 'best running shoes', 'answered', 'other engine', '{}', '[]', NULL)`,
        [
          acc.id,
          id,
          JSON.stringify([
            { name: 'Example', domain: 'console.com', brand: true, position: 1, cited: true },
          ]),
        ],
      );
      const answers = await person.get(`/ai-visibility/projects/${id}/answers`);
      expect(answers.status).toBe(200);
      expect(answers.body.data).toMatchObject({
        project_id: id,
        ai_engine: 'chatgpt',
        brand: { name: 'Example', aliases: ['Example Inc'], domain: 'console.com' },
        competitors: [{ name: 'Rival', domain: 'rival.com' }],
      });
      expect(answers.body.data.answers).toEqual([
        {
          prompt: 'best running shoes',
          scan_date: '2026-11-02',
          status: 'answered',
          answer: 'Example beats Rival.',
          cited_urls: ['https://example.com/a'],
          mentions: [
            { name: 'Example', domain: 'console.com', brand: true, position: 1, cited: true },
          ],
          sentiment: 0.5,
        },
        {
          prompt: 'never asked yet',
          scan_date: null,
          status: null,
          answer: null,
          cited_urls: [],
          mentions: [],
          sentiment: null,
        },
      ]);

      // Another account's project: 404 on every account route.
      const other = await account();
      const stranger = await signIn(t.url, other.id);
      for (const path of ['settings', 'scores', 'answers'])
        expect((await stranger.get(`/ai-visibility/projects/${id}/${path}`)).status).toBe(404);
      expect(
        (await stranger.patch(`/ai-visibility/projects/${id}`, { tracking_frequency: 'weekly' }))
          .status,
      ).toBe(404);
      expect((await stranger.delete(`/ai-visibility/projects/${id}`)).status).toBe(404);

      const gone = await person.delete(`/ai-visibility/projects/${id}`);
      expect(gone.body.data).toEqual({ project_id: id, deleted: true });
      const left = await sql.one<{ n: number }>(
        `SELECT count(*)::int AS n FROM ai_visibility_answers WHERE project_id = $1`,
        [id],
      );
      expect(left!.n).toBe(0);
    });

    it('without a session: 401; a cross-site write: refused', async () => {
      expect((await request(t.url).get('/account/v1/ai-visibility/projects')).status).toBe(401);
      const acc = await account();
      const person = await signIn(t.url, acc.id);
      const res = await request(t.url)
        .post('/account/v1/ai-visibility/projects')
        .set('Cookie', person.cookie)
        .set('Origin', 'https://evil.example')
        .send(aiProjectBody('evil.com'));
      expect(res.status).toBe(403);
      expect(await projectCount(acc.id)).toBe(0);
    });
  });
});
