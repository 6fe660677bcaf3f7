import { performance } from 'node:perf_hooks';
import { RankChecksRepository, SerpTasksRepository, Sql } from '@app/database';
import { SerpProvider, createSerpProvider } from '@app/providers';
import { RankCollectionService } from '../apps/worker/src/rank-collection/rank-collection.service';
import { FakeSerpQueue, taskCost } from '../test/fixtures/fake-serp-queue';
import { AdminClient } from '../test/helpers/fixtures';
import { TestApp, createTestApp } from '../test/helpers/test-app';

/**
 * Rank collection measured against the local fake SERP queue (docs/rank-collection.md,
 * "Measured"). Not part of `npm test`; run it with
 *   npx jest --selectProjects e2e --testMatch '**\/bench/rank-collection-measure.e2e-spec.ts'
 * RANK_MEASURE_KEYWORDS (default 5000) keywords of one tracking project, one worker: a day's
 * post run and the collect runs until every check is stored; the fake answers at once
 * (RANK_MEASURE_LATENCY_MS adds latency to every call). Prints the figures.
 */
const KEYWORDS = Number(process.env.RANK_MEASURE_KEYWORDS ?? 5000);
const LATENCY_MS = Number(process.env.RANK_MEASURE_LATENCY_MS ?? 0);
const TABLES = ['rank_checks', 'rank_serp_tasks', 'tracked_keywords', 'provider_spend'];

/** The SERP client with the time spent waiting on it added up. */
function timed(serp: SerpProvider, spent: { ms: number }): SerpProvider {
  const wrap =
    <A extends unknown[], R>(f: (...a: A) => Promise<R>) =>
    async (...a: A) => {
      const t0 = performance.now();
      try {
        return await f(...a);
      } finally {
        spent.ms += performance.now() - t0;
      }
    };
  return Object.assign(Object.create(serp) as SerpProvider, {
    postTasks: wrap(serp.postTasks.bind(serp)),
    tasksReady: wrap(serp.tasksReady.bind(serp)),
    taskGet: wrap(serp.taskGet.bind(serp)),
  });
}

describe('rank collection measurement', () => {
  const fake = new FakeSerpQueue();
  let t: TestApp;

  beforeAll(async () => {
    await fake.start();
    fake.slowMs = LATENCY_MS;
    t = await createTestApp({ env: fake.env({ RANK_CHECK_DEPTH: '100' }) });
  });
  afterAll(async () => {
    await t?.close();
    await fake.close();
  });

  it(`a day of ${KEYWORDS} keywords`, async () => {
    const sql = t.app.get(Sql);
    const admin = new AdminClient(t.url);
    const acc = await admin.account('agency');
    const project = await admin.post(`/accounts/${acc.id}/rank-projects`, {
      domain: 'measure-shop.com',
      name: 'Measure',
      tracking: true,
    });
    await sql.run(
      `INSERT INTO tracked_keywords (account_id, project_id, keyword, country, language, device, status)
       SELECT $1, $2, 'measure keyword ' || g, 'US', 'en', CASE WHEN g % 4 = 0 THEN 'mobile' ELSE 'desktop' END, 'active'
       FROM generate_series(1, $3) g`,
      [acc.id, project.body.data.id, KEYWORDS],
    );
    for (let i = 1; i <= KEYWORDS; i += 7)
      fake.serps.set(`measure keyword ${i}`, { rank: 1 + (i % 10), host: 'www.measure-shop.com' });
    await sql.run('VACUUM ANALYZE');
    const size = async () =>
      (
        await sql.rows<{ b: string }>(
          `SELECT sum(pg_total_relation_size(c))::text AS b FROM unnest($1::regclass[]) c`,
          [TABLES],
        )
      )[0].b;
    const bytesBefore = Number(await size());

    const spent = { ms: 0 };
    const w = new RankCollectionService(
      t.config,
      new SerpTasksRepository(sql, new RankChecksRepository(sql)),
      timed(createSerpProvider(t.config, t.clock), spent),
      t.clock,
    );
    const t0 = performance.now();
    const posted = await w.postDue();
    const postMs = performance.now() - t0;
    const postUpstream = spent.ms;
    let collected = 0;
    let runs = 0;
    const t1 = performance.now();
    while (collected < KEYWORDS && runs < 100) {
      collected += (await w.collect()).collected;
      runs++;
    }
    const collectMs = performance.now() - t1;
    const collectUpstream = spent.ms - postUpstream;
    await sql.run('VACUUM ANALYZE');
    const bytesAfter = Number(await size());
    const [rows] = await sql.rows<Record<string, number>>(
      `SELECT (SELECT count(*)::int FROM rank_checks WHERE account_id = $1) AS checks,
              (SELECT count(*)::int FROM rank_serp_tasks WHERE account_id = $1) AS tasks,
              (SELECT count(*)::int FROM provider_spend WHERE account_id = $1) AS spend_rows,
              (SELECT sum(usd)::float FROM provider_spend WHERE account_id = $1) AS usd`,
      [acc.id],
    );
    const perTask = taskCost(100);
    const report = {
      keywords: KEYWORDS,
      latency_ms: LATENCY_MS,
      posted: posted.posted,
      post_requests: fake.posts.length,
      post_run_ms: Math.round(postMs),
      post_upstream_ms: Math.round(postUpstream),
      collect_runs: runs,
      collect_ms: Math.round(collectMs),
      collect_upstream_ms: Math.round(collectUpstream),
      keywords_per_minute_per_worker: Math.round((KEYWORDS / (postMs + collectMs)) * 60_000),
      db_ms_per_keyword: Number(((postMs + collectMs - spent.ms) / KEYWORDS).toFixed(3)),
      rows,
      bytes_written: bytesAfter - bytesBefore,
      bytes_per_keyword: Math.round((bytesAfter - bytesBefore) / KEYWORDS),
      usd_per_task: perTask,
      usd_per_keyword_month_30d: Number((perTask * 30).toFixed(4)),
    };
    console.log(JSON.stringify(report, null, 2));
    expect(rows.checks).toBe(KEYWORDS);
    expect(rows.tasks).toBe(KEYWORDS);
    expect(rows.usd).toBeCloseTo(KEYWORDS * perTask, 6);
  });
});
