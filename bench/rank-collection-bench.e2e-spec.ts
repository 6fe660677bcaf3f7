import { performance } from 'node:perf_hooks';
import { metrics } from '@app/core';
import { RankChecksRepository, SerpTasksRepository, Sql } from '@app/database';
import { SerpProvider, createSerpProvider } from '@app/providers';
import { RankCollectionService } from '../apps/worker/src/rank-collection/rank-collection.service';
import { FakeSerpQueue, taskCost } from '../test/fixtures/fake-serp-queue';
import { AdminClient, bearer } from '../test/helpers/fixtures';
import { createOwnDatabase } from '../test/helpers/own-database';
import { TestApp, createTestApp } from '../test/helpers/test-app';
import { procCpuMs } from './bench-support';

/**
 * `npm run bench:rank-collection` (docs/rank-collection.md, "Collection at agency scale";
 * not part of `npm test`). Seeds BENCH_ACCOUNTS (20) accounts × BENCH_KEYWORDS (500)
 * tracked keywords, each account with a tracking project and an API key, in its own database
 * (seo_test_rankbench_*, dropped after). One worker (RankCollectionService, as the worker
 * process runs it) posts the day's checks to the local fake SERP queue (task_post ≤ 100 tasks,
 * tasks_ready ≤ 1,000 a call, task_get per task; BENCH_LATENCY_MS added to every answer)
 * and collects them until every check is stored, while BENCH_READERS (4) loops read
 * GET /api/v1/rank/keywords?limit=100 of random accounts from the same process's API.
 * Prints: checks posted / collected+stored per second, PostgreSQL CPU (utime + stime of the
 * backends connected to the bench database, from /proc/<pid>/stat) per stored check, the
 * kept-pages hit rate of the readers, and the reads per second.
 *
 * BENCH_MODE=postback: the tasks are posted with a postback_url to the same process's API
 * (RANK_POSTBACK_SECRET; docs/rank-collection.md, "Postbacks"); the fake POSTs each result
 * (gzip) BENCH_READY_MS (1000) after its post, BENCH_POSTBACK_CONCURRENCY (30) at a time, and
 * the API's receiver stores it.
 * Measured from the first task_post to the last check stored; task_get calls are counted (0
 * expected); a collect run afterwards drains whatever a failed postback left in tasks_ready.
 */
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 20);
const KEYWORDS = Number(process.env.BENCH_KEYWORDS ?? 500);
const READERS = Number(process.env.BENCH_READERS ?? 4);
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 0);
const MODE = process.env.BENCH_MODE === 'postback' ? 'postback' : 'poll';
const READY_MS = Number(process.env.BENCH_READY_MS ?? (MODE === 'postback' ? 1000 : 0));
/** Postbacks the fake sends at once (the provider's own concurrency is not documented). */
const POSTBACK_CONCURRENCY = Number(process.env.BENCH_POSTBACK_CONCURRENCY ?? 30);
const TOTAL = ACCOUNTS * KEYWORDS;
const SECRET = 'bench-postback-secret-0123456789abcdef';

/** The SERP client counting its calls and the time spent waiting on it. */
function counted(serp: SerpProvider, c: { calls: number; ms: number }): SerpProvider {
  const wrap =
    <A extends unknown[], R>(f: (...a: A) => Promise<R>) =>
    async (...a: A) => {
      const t0 = performance.now();
      c.calls++;
      try {
        return await f(...a);
      } finally {
        c.ms += performance.now() - t0;
      }
    };
  return Object.assign(Object.create(serp) as SerpProvider, {
    postTasks: wrap(serp.postTasks.bind(serp)),
    tasksReady: wrap(serp.tasksReady.bind(serp)),
    taskGet: wrap(serp.taskGet.bind(serp)),
  });
}

async function keptPages(): Promise<{ kept: number; read: number; not_kept: number }> {
  const out = { kept: 0, read: 0, not_kept: 0 };
  for (const v of (await metrics.rankPages.get()).values)
    out[v.labels.result as keyof typeof out] += v.value;
  return out;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : null;
};

jest.setTimeout(60 * 60_000);

describe('rank collection at agency scale (bench)', () => {
  const fake = new FakeSerpQueue();
  let t: TestApp;
  let db: { url: string; drop: () => Promise<void> } | undefined;

  beforeAll(async () => {
    await fake.start();
    fake.slowMs = LATENCY_MS;
    fake.readyAfterMs = READY_MS;
    fake.postbackConcurrency = POSTBACK_CONCURRENCY;
    db = await createOwnDatabase('rankbench');
    t = await createTestApp({
      env: fake.env({
        DATABASE_URL: db.url,
        RANK_CHECK_DEPTH: '100',
        LOG_LEVEL: 'warn',
        ...(MODE === 'postback' ? { RANK_POSTBACK_SECRET: SECRET } : {}),
      }),
    });
  });
  afterAll(async () => {
    await t?.close();
    await fake.close();
    await db?.drop();
  });

  it(`${MODE}: ${ACCOUNTS} accounts × ${KEYWORDS} keywords, ${READERS} readers`, async () => {
    const sql = t.app.get(Sql);
    const admin = new AdminClient(t.url);
    const accounts: Array<{ id: number; key: string }> = [];
    for (let a = 0; a < ACCOUNTS; a++) {
      const acc = await admin.account('agency', { requests_per_minute: 1_000_000 });
      const project = await admin.post(`/accounts/${acc.id}/rank-projects`, {
        domain: `bench-${a}.example`,
        name: `Bench ${a}`,
        tracking: true,
      });
      await sql.run(
        `INSERT INTO tracked_keywords (account_id, project_id, keyword, country, language, device, status)
         SELECT $1, $2, 'bench ' || $4 || ' keyword ' || g, 'US', 'en',
                CASE WHEN g % 4 = 0 THEN 'mobile' ELSE 'desktop' END, 'active'
         FROM generate_series(1, $3) g`,
        [acc.id, project.body.data.id, KEYWORDS, a],
      );
      for (let i = 1; i <= KEYWORDS; i += 3)
        fake.serps.set(`bench ${a} keyword ${i}`, {
          rank: 1 + (i % 10),
          host: `www.bench-${a}.example`,
        });
      accounts.push({ id: acc.id, key: acc.key });
    }
    await sql.run('VACUUM ANALYZE');
    const dbName = new URL(db!.url).pathname.slice(1);
    const backends = async () =>
      (
        await sql.rows<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = $1`, [
          dbName,
        ])
      ).map((r) => r.pid);
    const pgCpu = async () => {
      const m = new Map<number, number>();
      for (const pid of await backends()) m.set(pid, procCpuMs(pid));
      return m;
    };
    const pgCpuSince = async (before: Map<number, number>) => {
      let ms = 0;
      for (const [pid, now] of await pgCpu()) ms += now - (before.get(pid) ?? 0);
      return ms;
    };

    // Readers: a page of 100 keywords of a random account, until collection is over.
    let reading = true;
    let reads = 0;
    let readErrors = 0;
    const reader = async () => {
      while (reading) {
        const acc = accounts[Math.floor(Math.random() * accounts.length)];
        const res = await fetch(`${t.url}/api/v1/rank/keywords?limit=100`, {
          headers: bearer(acc.key),
        });
        await res.arrayBuffer();
        if (res.status === 200) reads++;
        else readErrors++;
      }
    };
    // Warm the kept pages once per account before measuring.
    for (const acc of accounts)
      await (
        await fetch(`${t.url}/api/v1/rank/keywords?limit=100`, { headers: bearer(acc.key) })
      ).arrayBuffer();

    const upstream = { calls: 0, ms: 0 };
    // Postback mode: the worker signs postback URLs to this process's API.
    const config =
      MODE === 'postback'
        ? {
            ...t.config,
            rankCollection: {
              ...t.config.rankCollection,
              postback: { baseUrl: t.url, secret: SECRET },
            },
          }
        : t.config;
    const w = new RankCollectionService(
      config,
      new SerpTasksRepository(sql, new RankChecksRepository(sql)),
      counted(createSerpProvider(t.config, t.clock), upstream),
      t.clock,
    );
    const pages0 = await keptPages();
    const readers = Array.from({ length: READERS }, reader);
    const cpu0 = await pgCpu();
    const node0 = process.cpuUsage();
    const t0 = performance.now();
    const posted = await w.postDue();
    const postMs = performance.now() - t0;
    const postCalls = upstream.calls;
    let collected = 0;
    let runs = 0;
    const storedNow = async () =>
      (await sql.one<{ n: number }>(
        `SELECT count(*)::int AS n FROM rank_serp_tasks WHERE state = 'collected'`,
      ))!.n;
    const t1 = performance.now();
    const getsBefore = fake.taskGets.length;
    let byPostback = 0;
    if (MODE === 'postback') {
      // The receiver stores them as they come; the worker only posts.
      for (let idle = 0; idle < 600;) {
        const n = await storedNow();
        if (n >= TOTAL) break;
        idle = n === byPostback ? idle + 1 : 0;
        byPostback = n;
        await new Promise((r) => setTimeout(r, 100));
      }
      await fake.postbacksSettled(120_000);
      byPostback = await storedNow();
      collected = byPostback;
    }
    const postbackMs = performance.now() - t0;
    while (collected < TOTAL && runs < 1000) {
      collected += (await w.collect()).collected;
      runs++;
    }
    const collectMs =
      MODE === 'postback' ? performance.now() - t0 - postMs : performance.now() - t1;
    const pgMs = await pgCpuSince(cpu0);
    const node = process.cpuUsage(node0);
    reading = false;
    await Promise.all(readers);
    const pages1 = await keptPages();
    const kept = pages1.kept - pages0.kept;
    const read = pages1.read - pages0.read + (pages1.not_kept - pages0.not_kept);
    const totalS = (postMs + collectMs) / 1000;

    const [rows] = await sql.rows<Record<string, number>>(
      `SELECT (SELECT count(*)::int FROM rank_checks) AS checks,
              (SELECT count(*)::int FROM rank_serp_tasks WHERE state = 'collected') AS collected,
              (SELECT round(sum(usd)::numeric, 6)::float FROM provider_spend) AS usd`,
    );
    const statuses: Record<string, number> = {};
    for (const p of fake.postbacks) {
      const k = String(p.status ?? p.error);
      statuses[k] = (statuses[k] ?? 0) + 1;
    }
    const postbackReport =
      MODE === 'postback'
        ? {
            ready_after_ms: READY_MS,
            postback_concurrency: POSTBACK_CONCURRENCY,
            stored_by_postback: byPostback,
            postback_answers: statuses,
            postback_answer_ms_median: median(fake.postbacks.map((p) => p.ms)),
            post_to_last_postback_stored_s: Number((postbackMs / 1000).toFixed(2)),
            stored_by_postback_per_s: Math.round(byPostback / (postbackMs / 1000)),
            task_get_calls: fake.taskGets.length - getsBefore,
            // The fake's share of node CPU: building the gzip bodies it sends.
            fake_postback_build_ms_per_check: Number(
              (fake.postbackBuildMs / Math.max(1, fake.postbacks.length)).toFixed(3),
            ),
          }
        : {};
    const report = {
      mode: MODE,
      ...postbackReport,
      accounts: ACCOUNTS,
      keywords_per_account: KEYWORDS,
      checks: TOTAL,
      readers: READERS,
      upstream_latency_ms: LATENCY_MS,
      posted: posted.posted,
      post_s: Number((postMs / 1000).toFixed(2)),
      posted_per_s: Math.round(posted.posted / (postMs / 1000)),
      post_requests: postCalls,
      collect_runs: runs,
      collect_s: Number((collectMs / 1000).toFixed(2)),
      collected_stored_per_s: Math.round(collected / (collectMs / 1000)),
      checks_per_s_end_to_end: Math.round(collected / totalS),
      upstream_calls: upstream.calls,
      upstream_calls_per_check: Number((upstream.calls / TOTAL).toFixed(3)),
      upstream_wait_s: Number((upstream.ms / 1000).toFixed(2)),
      pg_cpu_s: Number((pgMs / 1000).toFixed(2)),
      pg_cpu_ms_per_check: Number((pgMs / collected).toFixed(3)),
      pg_cpu_share_of_one_core: Number((pgMs / 1000 / totalS).toFixed(2)),
      node_cpu_ms_per_check: Number(((node.user + node.system) / 1000 / collected).toFixed(3)),
      reads,
      reads_per_s: Math.round(reads / totalS),
      read_errors: readErrors,
      kept_page_hits: kept,
      page_reads: read,
      kept_hit_rate: Number((kept / Math.max(1, kept + read)).toFixed(3)),
      rows,
      usd_expected: Number((TOTAL * taskCost(100)).toFixed(6)),
    };
    console.log(JSON.stringify(report, null, 2));
    expect(rows.checks).toBe(TOTAL);
    expect(rows.collected).toBe(TOTAL);
    expect(rows.usd).toBeCloseTo(TOTAL * taskCost(100), 6);
  });
});
