import { loadConfig, plainDate } from '@app/core';
import { Sql } from '@app/database';
import {
  SandboxSerpProvider,
  SerpPosted,
  SerpProvider,
  SerpTaskRequest,
  createSeoDataProvider,
  createSerpProvider,
  sandboxPosition,
  serpTaskListPrice,
} from '@app/providers';
import { KeywordMetricsRepository } from '../../apps/worker/src/rank-collection/keyword-metrics.repository';
import { KeywordMetricsService } from '../../apps/worker/src/rank-collection/keyword-metrics.service';
import { FakeDataForSeo } from '../fixtures/fake-dataforseo';
import { FakeSerpQueue, taskCost } from '../fixtures/fake-serp-queue';
import { AdminClient, TestAccount } from '../helpers/fixtures';
import { createOwnDatabase } from '../helpers/own-database';
import { TestApp, createTestApp } from '../helpers/test-app';
import {
  GENEROUS,
  YourDataAdmin,
  expectOk,
  get,
  rankWorker,
  trackingProject as trackedProject,
} from './your-data-fixtures';

/**
 * Rank collection (docs/rank-collection.md) against a local fake of DataForSEO's SERP
 * standard queue: workers are RankCollectionService instances (each with its own SERP
 * client) on the test's database and ManualClock, run by hand instead of by the schedulers.
 */
describe('rank collection through the SERP standard queue', () => {
  const fake = new FakeSerpQueue();
  let t: TestApp;
  // Its own database: collection claims every due keyword of a database, so suites running
  // at the same time (or the demo seed's tracking project) must not share one.
  let db: { url: string; drop: () => Promise<void> } | undefined;
  let admin: AdminClient;
  let yd: YourDataAdmin;
  let sql: Sql;
  const cleanups: Array<() => Promise<unknown>> = [];

  beforeAll(async () => {
    await fake.start();
    db = await createOwnDatabase('rankcollect');
    t = await createTestApp({
      env: fake.env({
        DATABASE_URL: db.url,
        RANK_CHECK_DEPTH: '100',
      }),
    });
    admin = new AdminClient(t.url);
    yd = new YourDataAdmin(admin);
    sql = t.app.get(Sql);
  });
  afterEach(async () => {
    for (const c of cleanups.splice(0)) await c();
    fake.readyAfterMs = 0;
  });
  afterAll(async () => {
    await t?.close();
    await fake.close();
    await db?.drop();
  });

  /** A worker: its own SERP client, the shared database and clock. */
  const worker = (serp?: SerpProvider) => rankWorker(t, t.config, serp);
  const trackingProject = (domain: string, tracking = true) =>
    trackedProject(admin, cleanups, domain, tracking);

  const taskRow = (keywordId: number) =>
    sql.one<{ state: string; attempts: number; task_id: string | null; cost: string }>(
      `SELECT state, attempts, task_id, cost FROM rank_serp_tasks WHERE keyword_id = $1 ORDER BY check_date DESC LIMIT 1`,
      [keywordId],
    );

  async function keywordEntry(acc: TestAccount, keywordId: number) {
    const res = await get(t, acc, '/api/v1/rank/keywords');
    expectOk(res);
    return (res.body.data.keywords as Array<Record<string, unknown>>).find(
      (k) => k.keyword_id === keywordId,
    );
  }

  it('checks a keyword end to end: posted once, collected, shown by GET /rank/keywords with position and features', async () => {
    const { acc, projectId } = await trackingProject('trail-gear.com');
    fake.serps.set('trail boots', {
      rank: 3,
      host: 'shop.trail-gear.com',
      sitelinks: true,
      features: ['featured_snippet', 'people_also_ask', 'popular_products'],
    });
    const kw = await yd.keyword(projectId, 'trail boots', { status: 'pending' });
    const paused = await yd.keyword(projectId, 'trail paused', { status: 'paused' });
    const w = worker();

    const posted = await w.postDue();
    expect(posted.posted).toBeGreaterThanOrEqual(1);
    const sent = fake.posts.flat().find((p) => p.keyword === 'trail boots')!;
    expect(sent).toMatchObject({
      location_code: 2840,
      language_code: 'en',
      device: 'desktop',
      depth: 100,
    });
    expect(fake.postedCount('trail paused')).toBe(0);
    expect((await taskRow(kw))?.state).toBe('posted');
    expect(await taskRow(paused)).toBeUndefined();

    await w.collect();
    expect((await taskRow(kw))?.state).toBe('collected');
    const entry = await keywordEntry(acc, kw);
    expect(entry).toMatchObject({
      status: 'active',
      current_position: 3,
      landing_page: 'https://shop.trail-gear.com/trail%20boots',
      featured_snippet: true,
      local_pack: false,
      ai_overview: false,
      last_checked: plainDate(new Date()),
    });
    const history = await get(t, acc, `/api/v1/rank/history?keyword_id=${kw}`);
    expectOk(history);
    expect(history.body.data.history[0]).toMatchObject({
      position: 3,
      people_also_ask: true,
      shopping: true,
      sitelinks: true,
      videos: false,
    });

    // The same UTC day: nothing is posted again.
    expect(await w.postDue()).toMatchObject({ claimed: 0 });
    expect(fake.postedCount('trail boots')).toBe(1);
  });

  it('the offline sandbox (no credentials) checks keywords end to end at its deterministic positions', async () => {
    const { acc, projectId } = await trackingProject('sandbox-shop.com');
    const day = plainDate(t.clock.now());
    const words = Array.from({ length: 8 }, (_, i) => `sandbox keyword ${i}`);
    const ids: number[] = [];
    for (const w of words) ids.push(await yd.keyword(projectId, w));
    const w = worker(new SandboxSerpProvider(() => t.clock.now()));
    await w.postDue();
    await w.collect();
    for (const [i, word] of words.entries()) {
      const entry = await keywordEntry(acc, ids[i]);
      expect(entry).toMatchObject({
        current_position: sandboxPosition(word, '2840|en|desktop', day, 100),
        last_checked: day,
      });
    }
    expect(fake.postedCount('sandbox keyword 0')).toBe(0);
  });

  it('admin-made projects do not track unless their body says so', async () => {
    const { projectId } = await trackingProject('imported-history.com', false);
    const untracked = await yd.keyword(projectId, 'imported keyword');
    const acc2 = await admin.account('pro', GENEROUS);
    const res = await admin.post(`/accounts/${acc2.id}/rank-projects`, {
      domain: 'default-off.com',
      name: 'x',
    });
    expectOk(res, 201);
    expect(res.body.data.tracking).toBe(false);
    // An update that leaves tracking out keeps it; one that says true switches it on.
    const renamed = await admin.post(`/accounts/${acc2.id}/rank-projects`, {
      domain: 'default-off.com',
      name: 'y',
    });
    expect(renamed.body.data).toMatchObject({ id: res.body.data.id, name: 'y', tracking: false });
    const defaulted = await yd.keyword(res.body.data.id, 'default keyword');
    await worker().postDue();
    expect(fake.postedCount('imported keyword')).toBe(0);
    expect(fake.postedCount('default keyword')).toBe(0);
    expect(await taskRow(untracked)).toBeUndefined();
    expect(await taskRow(defaulted)).toBeUndefined();
  });

  it('two workers racing post exactly one task per keyword and day, at most 100 per request', async () => {
    const { projectId } = await trackingProject('race-shop.com');
    const words = Array.from({ length: 150 }, (_, i) => `race keyword ${i}`);
    const ids: number[] = [];
    for (const w of words) ids.push(await yd.keyword(projectId, w));
    const before = fake.posts.length;

    const [a, b] = await Promise.all([worker().postDue(), worker().postDue()]);
    expect(a.posted + b.posted).toBeGreaterThanOrEqual(150);
    for (const w of words) expect(fake.postedCount(w)).toBe(1);
    for (const p of fake.posts.slice(before)) expect(p.length).toBeLessThanOrEqual(100);
    const [{ n }] = await sql.rows<{ n: number }>(
      `SELECT count(*)::int AS n FROM rank_serp_tasks WHERE keyword_id = ANY($1::int[]) AND state = 'posted'`,
      [ids],
    );
    expect(n).toBe(150);
  });

  it('spend: every task cost recorded exactly per account, day and endpoint', async () => {
    const { acc, projectId } = await trackingProject('spend-shop.com');
    for (let i = 0; i < 7; i++) await yd.keyword(projectId, `spend keyword ${i}`);
    await worker().postDue();
    const rows = await sql.rows<{ day: string; endpoint: string; tasks: number; usd: string }>(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, endpoint, tasks, usd::text FROM provider_spend WHERE account_id = $1`,
      [acc.id],
    );
    expect(rows).toEqual([
      {
        day: plainDate(t.clock.now()),
        endpoint: 'serp/google/organic/task_post',
        tasks: 7,
        usd: (7 * taskCost(100)).toFixed(6),
      },
    ]);
  });

  it('GET /admin/v1/accounts/{id}/provider-spend answers the month by endpoint; 404 unknown account; 422 bad month', async () => {
    const { acc, projectId } = await trackingProject('spend-route.com');
    for (let i = 0; i < 3; i++) await yd.keyword(projectId, `spend route ${i}`);
    await worker().postDue();
    const month = plainDate(t.clock.now()).slice(0, 7);
    const res = await admin.get(`/accounts/${acc.id}/provider-spend?month=${month}`);
    expectOk(res);
    const usd = Number((3 * taskCost(100)).toFixed(6));
    expect(res.body.data).toEqual({
      month,
      total_usd: usd,
      by_endpoint: [{ endpoint: 'serp/google/organic/task_post', tasks: 3, usd }],
    });
    const other = await admin.get(`/accounts/${acc.id}/provider-spend?month=2001-01`);
    expect(other.body.data).toEqual({ month: '2001-01', total_usd: 0, by_endpoint: [] });
    expect((await admin.get(`/accounts/999999999/provider-spend?month=${month}`)).status).toBe(404);
    for (const bad of ['2026-13', '2026-1', 'soon', '']) {
      const r = await admin.get(`/accounts/${acc.id}/provider-spend?month=${bad}`);
      expect(r.status).toBe(422);
      expect(r.body.error.code).toBe('VALIDATION_ERROR');
    }
  });

  it('a worker killed between post and record: the task is adopted from tasks_ready, collected once, never posted again', async () => {
    const { acc, projectId } = await trackingProject('crash-shop.com');
    fake.serps.set('crash keyword', { rank: 5, host: 'www.crash-shop.com' });
    const kw = await yd.keyword(projectId, 'crash keyword');
    const real = createSerpProvider(t.config, t.clock);
    // The first worker dies after the provider created its tasks, before recording them.
    const dying = Object.assign(Object.create(real) as SerpProvider, {
      postTasks: async (tasks: SerpTaskRequest[]): Promise<SerpPosted[]> => {
        await real.postTasks(tasks);
        throw new Error('worker killed');
      },
    });
    await expect(worker(dying).postDue()).rejects.toThrow('worker killed');
    expect((await taskRow(kw))?.state).toBe('claimed');

    const restarted = worker();
    await restarted.collect();
    expect((await taskRow(kw))?.state).toBe('collected');
    expect((await keywordEntry(acc, kw))?.current_position).toBe(5);
    await restarted.postDue();
    expect(fake.postedCount('crash keyword')).toBe(1);
    // Its charge was in the lost answer: the ledger holds it at the list price (which the
    // fake charges too), once, and a second collect run adds nothing.
    await restarted.collect();
    const spend = await sql.rows<{ tasks: number; usd: string }>(
      `SELECT tasks, usd::text FROM provider_spend WHERE account_id = $1`,
      [acc.id],
    );
    expect(spend).toEqual([{ tasks: 1, usd: taskCost(100).toFixed(6) }]);
    expect(serpTaskListPrice(100)).toBe(taskCost(100));
    expect(serpTaskListPrice(10)).toBe(0.0006);
    expect(serpTaskListPrice(700)).toBe(taskCost(700));
  });

  it('a worker killed between post and collect: another one collects it; a task fetched but not stored is collected again later', async () => {
    const { acc, projectId } = await trackingProject('restart-shop.com');
    fake.serps.set('restart keyword', { rank: 2, host: 'restart-shop.com' });
    const kw = await yd.keyword(projectId, 'restart keyword');
    await worker().postDue();
    // A worker fetched the result (it left tasks_ready) and died before storing it.
    const row = await taskRow(kw);
    await createSerpProvider(t.config, t.clock).taskGet(row!.task_id!);
    const other = worker();
    await other.collect();
    expect((await taskRow(kw))?.state).toBe('posted');
    t.clock.advance(16 * 60_000); // past the overdue delay: asked for directly
    await other.collect();
    expect((await taskRow(kw))?.state).toBe('collected');
    expect((await keywordEntry(acc, kw))?.current_position).toBe(2);
    expect(fake.postedCount('restart keyword')).toBe(1);
  });

  it('40102 stores a check with position null; 405xx sets the keyword status error; other failures retry, 3 tasks a day at most', async () => {
    const { acc, projectId } = await trackingProject('codes-shop.com');
    fake.taskCodes.set('codes none', 40102);
    fake.taskCodes.set('codes refused', 40501);
    fake.taskCodes.set('codes flaky', 50000);
    const none = await yd.keyword(projectId, 'codes none');
    const refused = await yd.keyword(projectId, 'codes refused');
    const flaky = await yd.keyword(projectId, 'codes flaky');
    const w = worker();
    for (let round = 0; round < 4; round++) {
      await w.postDue();
      await w.collect();
    }
    const noneEntry = await keywordEntry(acc, none);
    expect(noneEntry).toMatchObject({
      current_position: null,
      last_checked: plainDate(t.clock.now()),
    });
    expect((await keywordEntry(acc, refused))?.status).toBe('error');
    expect(fake.postedCount('codes none')).toBe(1);
    expect(fake.postedCount('codes refused')).toBe(1);
    expect(fake.postedCount('codes flaky')).toBe(3);
    expect(await taskRow(flaky)).toMatchObject({ state: 'failed', attempts: 3 });
    expect(await taskRow(refused)).toMatchObject({ state: 'refused' });
  });

  it('a task that never becomes ready is given up after 24 hours and the keyword is due again', async () => {
    const { projectId } = await trackingProject('stuck-shop.com');
    fake.neverReady.add('stuck keyword');
    const kw = await yd.keyword(projectId, 'stuck keyword');
    const w = worker();
    await w.postDue();
    await w.collect();
    expect((await taskRow(kw))?.state).toBe('posted');
    t.clock.advance(23 * 3600_000);
    await w.collect();
    expect((await taskRow(kw))?.state).toBe('posted');
    t.clock.advance(3600_000 + 60_000);
    const collected = await w.collect();
    expect(collected.givenUp).toBeGreaterThanOrEqual(1);
    const given = await sql.rows<{ state: string }>(
      `SELECT state FROM rank_serp_tasks WHERE keyword_id = $1 ORDER BY check_date`,
      [kw],
    );
    expect(given.map((r) => r.state)).toEqual(['given_up']);
    await w.postDue();
    expect(fake.postedCount('stuck keyword')).toBe(2);
    expect((await taskRow(kw))?.state).toBe('posted');
  });

  it('keyword metrics: fetched once per market batch for new keywords, again after 30 days, cost in the ledger', async () => {
    const dfs = new FakeDataForSeo();
    await dfs.start();
    try {
      const provider = createSeoDataProvider(loadConfig({ ...process.env, ...dfs.env() }));
      const svc = new KeywordMetricsService(new KeywordMetricsRepository(sql), provider, t.clock);
      const { acc, projectId } = await trackingProject('metrics-shop.com');
      const tent = await yd.keyword(projectId, 'metrics tent');
      const stove = await yd.keyword(projectId, 'metrics stove', { country: 'GB' });
      const overview = '/v3/dataforseo_labs/google/keyword_overview/live';
      const calls = () =>
        dfs.requests
          .filter((r) => r.path === overview)
          .map((r) => (r.body as Array<Record<string, unknown>>)[0]);

      await svc.refresh();
      const first = calls();
      const mine = first.filter((c) =>
        (c.keywords as string[]).some((k) => k.startsWith('metrics ')),
      );
      expect(mine.map((c) => [c.location_code, c.language_code])).toEqual([
        [2826, 'en'],
        [2840, 'en'],
      ]);
      expect(await keywordEntry(acc, tent)).toMatchObject({
        difficulty: 57,
        search_volume: 5400,
        cpc: 1.5,
      });
      expect(await keywordEntry(acc, stove)).toMatchObject({ difficulty: 57, search_volume: 5400 });
      // Each call's cost (0.02 at the fake) is split over the keywords it asked for (other
      // accounts' tracked keywords of the market may share the call), rounded to the ledger's 6 decimals.
      const expected = mine.reduce((sum, c) => {
        const asked = c.keywords as string[];
        const ours = asked.filter((k) => k.startsWith('metrics ')).length;
        return sum + Math.round((0.02 / asked.length) * ours * 1e6) / 1e6;
      }, 0);
      const [spend] = await sql.rows<{ tasks: number; usd: string }>(
        `SELECT tasks, usd::text FROM provider_spend WHERE account_id = $1 AND endpoint = $2`,
        [acc.id, 'dataforseo_labs/google/keyword_overview'],
      );
      expect(spend.tasks).toBe(2);
      expect(Number(spend.usd)).toBeCloseTo(expected, 6);

      await svc.refresh();
      expect(calls().length).toBe(first.length); // nothing due the next run
      t.clock.advance(31 * 86_400_000);
      await svc.refresh();
      expect(calls().length).toBeGreaterThan(first.length);
    } finally {
      await dfs.close();
    }
  });
});
