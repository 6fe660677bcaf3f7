import 'reflect-metadata';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Client } from 'pg';
import { CoreModule, addDays, loadConfig } from '@app/core';
import { DatabaseModule, ensureDatabase, runMigrations } from '@app/database';
import { JobLifecycleService, SiteAuditModule, newJobId } from '@app/site-audit';
import { startProcess, stopProcess } from './bench-support';

/**
 * `npm run bench:long-poll` (after a build; raise the file limit first: `ulimit -n 20000`).
 *
 * N (default 5,000) concurrent GET /api/v1/jobs/{id}?wait=60 on ONE API process (the compiled
 * apps/api, its own database seo_api_bench_longpoll and Redis prefix), spread over A accounts
 * (default 10) with JOBS_WAIT_MAX_PER_ACCOUNT raised to fit. While they wait, a probe sends
 * GET /api/v1/usage every 20 ms (another account) and the API's RSS is sampled from /proc.
 * Then the jobs are failed through the real terminal path (JobLifecycleService.failAudit in
 * this process: the transaction, then the Redis event) at R jobs/s (default 500), and each
 * waiting client's answer time is measured from the start of its job's failAudit call.
 * Results: docs/performance.md, "Long-poll".
 */
const WAITERS = Number(process.env.BENCH_WAITERS ?? 5000);
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 10);
const FINISH_RATE = Number(process.env.BENCH_FINISH_PER_SECOND ?? 100);
const FINISH_MEASURED = Number(process.env.BENCH_FINISH_JOBS ?? 1000);
const API_PORT = Number(process.env.BENCH_PORT ?? 3920);
const ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef';
const DB_NAME = 'seo_api_bench_longpoll';
const BASE = `http://127.0.0.1:${API_PORT}`;

const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
const probeAgent = new http.Agent({ keepAlive: true, maxSockets: 4 });

function get(
  url: string,
  headers: Record<string, string>,
  via = agent,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: via, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
  });
}

async function adminCall(
  method: string,
  p: string,
  body?: unknown,
): Promise<{ data: Record<string, unknown> }> {
  const res = await fetch(`${BASE}/admin/v1${p}`, {
    method,
    headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.json()) as { data: Record<string, unknown> };
}

async function account(name: string): Promise<{ id: number; key: string }> {
  const created = await adminCall('POST', '/accounts', { name, plan: 'agency' });
  const id = created.data.id as number;
  await adminCall('PATCH', `/accounts/${id}`, {
    overrides: { api_calls_per_month: 'unlimited', requests_per_minute: 1_000_000_000 },
  });
  const key = await adminCall('POST', `/accounts/${id}/api-keys`, { label: 'bench' });
  return { id, key: key.data.key as string };
}

const rssMb = (pid: number): number => {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
};

function pct(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
const summary = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const f = (n: number) => n.toFixed(1);
  return `n=${s.length} p50=${f(pct(s, 50))} p95=${f(pct(s, 95))} p99=${f(pct(s, 99))} max=${f(s[s.length - 1])} ms`;
};

async function waitingOnApi(): Promise<number | null> {
  const res = await get(`${BASE}/metrics`, { Authorization: `Bearer ${ADMIN_TOKEN}` }, probeAgent);
  if (res.status !== 200) return null;
  const m = /^jobs_long_poll_waiting (\d+)/m.exec(res.body);
  return m ? Number(m[1]) : null;
}

@Module({ imports: [CoreModule, DatabaseModule, SiteAuditModule] })
class BenchJobsModule {}

async function main(): Promise<void> {
  const base = loadConfig();
  const dbUrl = new URL(base.databaseUrl);
  dbUrl.pathname = `/${DB_NAME}`;
  const databaseUrl = dbUrl.toString();
  const adminDbUrl = new URL(databaseUrl);
  adminDbUrl.pathname = '/postgres';
  const pg = new Client({ connectionString: adminDbUrl.toString() });
  await pg.connect();
  await pg.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  await pg.end();
  await ensureDatabase(databaseUrl);
  await runMigrations(databaseUrl);

  const redisPrefix = `seobench-lp:${Date.now()}`;
  const env = {
    ...process.env,
    PORT: String(API_PORT),
    DATABASE_URL: databaseUrl,
    REDIS_PREFIX: redisPrefix,
    ADMIN_TOKEN,
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    JOBS_WAIT_MAX_PER_ACCOUNT: String(Math.ceil(WAITERS / ACCOUNTS)),
    JOBS_WAIT_MAX_TOTAL: String(Math.max(10_000, WAITERS)),
  };
  // This process finishes the jobs with the same database and Redis prefix.
  Object.assign(process.env, {
    DATABASE_URL: databaseUrl,
    REDIS_PREFIX: redisPrefix,
    LOG_LEVEL: 'warn',
    DB_POOL_SIZE: '20',
  });
  const dist = path.resolve(__dirname, '..');
  const api = await startProcess(
    path.join(dist, 'apps/api/src/main.js'),
    env,
    `${BASE}/health/live`,
    ['--max-semi-space-size=64'],
  );
  const killApi = () => api.kill('SIGKILL');
  process.on('exit', killApi); // never leave the API process behind
  const ctx = await NestFactory.createApplicationContext(BenchJobsModule, { logger: false });
  const jobsService = ctx.get(JobLifecycleService);
  let rssMax = 0;
  const sampler = setInterval(() => (rssMax = Math.max(rssMax, rssMb(api.pid!))), 100);
  try {
    const accounts = await Promise.all(
      Array.from({ length: ACCOUNTS }, (_, i) => account(`bench lp ${i}`)),
    );
    const prober = await account('bench lp probe');

    // Jobs: queued rows (with their page-budget rows), never enqueued; this bench ends them.
    const now = new Date();
    const jobs: Array<{ id: string; acc: { id: number; key: string } }> = [];
    for (let i = 0; i < WAITERS; i++) jobs.push({ id: newJobId(), acc: accounts[i % ACCOUNTS] });
    for (let i = 0; i < jobs.length; i += 50) {
      await Promise.all(
        jobs.slice(i, i + 50).map((j) =>
          jobsService.createQueued({
            jobId: j.id,
            accountId: j.acc.id,
            url: 'https://example.com/',
            depth: 1,
            requestedPages: 1,
            pagesPerCrawl: 100,
            rollingBudget: 1_000_000,
            crawlsPerMonth: 1_000_000,
            at: null,
            requestId: null,
            now,
            deadlineAt: addDays(now, 1),
          }),
        ),
      );
    }
    await new Promise((r) => setTimeout(r, 1000));
    const rssBefore = rssMb(api.pid!);

    const finishedAt = new Map<string, number>();
    const answerLatency: number[] = [];
    const statuses = new Map<string, number>();
    const t0 = performance.now();
    // Opened in batches of 250 (the listen backlog is finite); every failure is counted.
    const answers: Promise<void>[] = [];
    for (let i = 0; i < jobs.length; i += 250) {
      for (const j of jobs.slice(i, i + 250)) {
        answers.push(
          get(`${BASE}/api/v1/jobs/${j.id}?wait=60`, { Authorization: `Bearer ${j.acc.key}` }).then(
            (res) => {
              const at = performance.now();
              const status =
                res.status === 200
                  ? String(JSON.parse(res.body).data.status)
                  : `http ${res.status}`;
              statuses.set(status, (statuses.get(status) ?? 0) + 1);
              const started = finishedAt.get(j.id);
              if (started !== undefined) answerLatency.push(at - started);
            },
            (err: Error) => {
              const status = `error ${err.message}`;
              statuses.set(status, (statuses.get(status) ?? 0) + 1);
            },
          ),
        );
      }
      // Keep at most ~300 requests between the client and the waiting set (accept backlog).
      const opened = Math.min(jobs.length, i + 250);
      for (let n = 0; n < 100; n++) {
        const now = await waitingOnApi();
        if (now === null || now >= opened - 300) break;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    // Until every request waits on the API (its gauge), or 40 s.
    const deadline = Date.now() + 40_000;
    let waiting: number | null = null;
    while (Date.now() < deadline) {
      waiting = await waitingOnApi();
      if (waiting === null || waiting >= WAITERS) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    if (waiting === null) await new Promise((r) => setTimeout(r, 5000));
    const settledMs = performance.now() - t0;
    // The probe: GET /usage every 20 ms from the moment every request waits to the end.
    const probe: number[] = [];
    let probing = true;
    const probeLoop = (async () => {
      while (probing) {
        const t0 = performance.now();
        await get(`${BASE}/api/v1/usage`, { Authorization: `Bearer ${prober.key}` }, probeAgent);
        probe.push(performance.now() - t0);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();

    // Steady state: everyone waits, only the probe runs (5 s).
    await new Promise((r) => setTimeout(r, 5000));
    const probeWhileWaiting = probe.length;
    const rssWaiting = rssMb(api.pid!);

    // Finish FINISH_MEASURED jobs at FINISH_RATE per second, through the real terminal path,
    // with at most FINISHERS transitions in flight; the latency clock of a job starts when its
    // failAudit call starts. The last-opened jobs first (their 60 s deadlines are the latest).
    // Then the rest as fast as the finishers go (bulk), answered but not measured.
    const FINISHERS = 16;
    const order = [...jobs].reverse();
    const measured = order.slice(0, FINISH_MEASURED);
    const finishAll = async (list: typeof jobs, rate: number | null) => {
      const began = performance.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: FINISHERS }, async () => {
          while (next < list.length) {
            const i = next++;
            if (rate !== null) {
              const due = began + (i * 1000) / rate - performance.now();
              if (due > 0) await new Promise((r) => setTimeout(r, due));
            }
            finishedAt.set(list[i].id, performance.now());
            await jobsService.failAudit(
              list[i].id,
              { code: 'UNREACHABLE', message: 'bench' },
              { refund: false, pagesUsed: 0 },
              new Date(),
            );
          }
        }),
      );
      return (performance.now() - began) / 1000;
    };
    const finishSeconds = await finishAll(measured, FINISH_RATE);
    await new Promise((r) => setTimeout(r, 500));
    const probeFinishing = probe.length;
    const measuredLatency = [...answerLatency];
    const bulkStart = performance.now();
    await finishAll(order.slice(FINISH_MEASURED), null);
    await Promise.all(answers);
    const bulkSeconds = (performance.now() - bulkStart) / 1000;
    probing = false;
    await probeLoop;

    console.log(
      `\nLong-poll bench: ${WAITERS} waiting GET /jobs/{id}?wait=60 over ${ACCOUNTS} accounts, one API process`,
    );
    console.log(`  all waiting after ${settledMs.toFixed(0)} ms (API gauge: ${waiting ?? 'n/a'})`);
    console.log(`  answers: ${JSON.stringify(Object.fromEntries(statuses))}`);
    console.log(
      `  API RSS: before ${rssBefore.toFixed(0)} MB, while waiting ${rssWaiting.toFixed(0)} MB, max ${rssMax.toFixed(0)} MB`,
    );
    console.log(
      `  probe GET /usage while ${WAITERS} wait: ${summary(probe.slice(0, probeWhileWaiting))}`,
    );
    console.log(
      `  probe GET /usage while ${measured.length} jobs finish at ${FINISH_RATE}/s: ${summary(probe.slice(probeWhileWaiting, probeFinishing))}`,
    );
    console.log(
      `  probe GET /usage during the bulk finish: ${summary(probe.slice(probeFinishing))}`,
    );
    console.log(
      `  measured: ${measured.length} jobs finished in ${finishSeconds.toFixed(1)} s (target ${FINISH_RATE}/s); ` +
        `answer after its job's failAudit started: ${summary(measuredLatency)}`,
    );
    console.log(
      `  bulk: the other ${WAITERS - measured.length} jobs finished and answered in ${bulkSeconds.toFixed(1)} s; ` +
        `all answers after failAudit started: ${summary(answerLatency)}`,
    );
  } finally {
    clearInterval(sampler);
    process.off('exit', killApi);
    await ctx.close();
    await stopProcess(api);
    agent.destroy();
    probeAgent.destroy();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
