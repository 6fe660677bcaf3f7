import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { addDays, loadConfig, plainDate } from '@app/core';
import { ensureDatabase, runMigrations } from '@app/database';
import { startProcess, stopProcess } from './bench-support';
import { BENCH_ROWS, findLargeDataSet, openBenchSql, seedLargeDataSet } from './gsc-large-data';

/**
 * `npm run bench:gsc` (after `npm run build`): latency of GET /api/v1/gsc/queries over a
 * property with 1,000,000 daily facts (90 days). Starts the compiled API against
 * DATABASE_URL, seeds the data set first when it is missing (`npm run seed:gsc-large`
 * re-seeds it), then sends sequential requests over one keep-alive connection (so the
 * figures are per-request latency, not queueing) and prints p50 / p95 / p99.
 * Method and results: docs/performance.md, section "GSC queries".
 */
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 20);
const PORT = Number(process.env.BENCH_PORT ?? 3902);
const ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef';

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function measure(
  url: string,
  key: string,
): Promise<{ p50: number; p95: number; p99: number; max: number; bad: number }> {
  const times: number[] = [];
  let bad = 0;
  for (let n = 0; n < WARMUP + REQUESTS; n++) {
    const t0 = performance.now();
    const res = await fetch(url, { headers: { Authorization: `Bearer ${key}` } });
    await res.arrayBuffer();
    const ms = performance.now() - t0;
    if (res.status !== 200) bad++;
    if (n >= WARMUP) times.push(ms);
  }
  times.sort((a, b) => a - b);
  const r = (x: number) => Math.round(x * 10) / 10;
  return {
    p50: r(percentile(times, 50)),
    p95: r(percentile(times, 95)),
    p99: r(percentile(times, 99)),
    max: r(times[times.length - 1]),
    bad,
  };
}

async function main(): Promise<void> {
  const config = loadConfig();
  await ensureDatabase(config.databaseUrl);
  await runMigrations(config.databaseUrl);
  const { sql, close } = await openBenchSql(config.databaseUrl);
  const today = new Date();
  let data = await findLargeDataSet(sql);
  if (!data || data.rows !== BENCH_ROWS) {
    console.log('Seeding 1,000,000 GSC rows...');
    const s = await seedLargeDataSet(sql, plainDate(today));
    console.log(`  done in ${s.seconds.toFixed(1)} s`);
    data = s;
  }
  const env = {
    ...process.env,
    PORT: String(PORT),
    ADMIN_TOKEN,
    REDIS_PREFIX: `seobench:gsc:${Date.now()}`,
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
  };
  const dist = path.resolve(__dirname, '..');
  const api = await startProcess(
    path.join(dist, 'apps/api/src/main.js'),
    env,
    `http://127.0.0.1:${PORT}/health/live`,
  );
  try {
    const keyRes = await fetch(
      `http://127.0.0.1:${PORT}/admin/v1/accounts/${data.accountId}/api-keys`,
      {
        method: 'POST',
        headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ label: 'gsc bench' }),
      },
    );
    const key = ((await keyRes.json()) as { data: { key: string } }).data.key;
    const base = `http://127.0.0.1:${PORT}/api/v1/gsc/queries?property_id=${data.propertyId}`;
    const from90 = plainDate(addDays(today, -89));
    const scenarios: Array<[string, string]> = [
      ['dim=query, default period (28 days), limit=100', `${base}&dim=query&limit=100`],
      ['dim=query, all 90 days, limit=100', `${base}&dim=query&limit=100&from=${from90}`],
      [
        'dim=query, all 90 days, sort=ctr asc, limit=500',
        `${base}&dim=query&sort=ctr&dir=asc&limit=500&from=${from90}`,
      ],
      ['dim=page, all 90 days, limit=100', `${base}&dim=page&limit=100&from=${from90}`],
      ['dim=date, all 90 days, limit=100', `${base}&dim=date&limit=100&from=${from90}`],
    ];
    console.log(
      `\n${BENCH_ROWS.toLocaleString('en')} facts, property ${data.propertyId}; ${REQUESTS} sequential requests per scenario after ${WARMUP} warm-up\n`,
    );
    console.log('| scenario | p50 ms | p95 ms | p99 ms | max ms | non-200 |');
    console.log('|---|---:|---:|---:|---:|---:|');
    let failed = false;
    for (const [name, url] of scenarios) {
      const r = await measure(url, key);
      failed ||= r.bad > 0;
      console.log(`| ${name} | ${r.p50} | ${r.p95} | ${r.p99} | ${r.max} | ${r.bad} |`);
    }
    if (failed) {
      console.error('Some requests failed: the figures are not valid.');
      process.exitCode = 1;
    }
  } finally {
    await stopProcess(api);
    await close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
