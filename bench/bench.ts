import path from 'node:path';
import { Client } from 'pg';
import { loadConfig } from '@app/core';
import { ensureDatabase, runMigrations } from '@app/database';
import {
  LoadResult,
  load,
  median,
  pinLoadGenerator,
  printTable,
  startProcess,
  stopProcess,
} from './bench-support';

/**
 * `npm run bench`: the full request pipeline (GET /api/v1/usage: key lookup, plan check,
 * per-minute limit in Redis, monthly meter in PostgreSQL, envelope, JSON logs) against a
 * bare NestJS route, in the same run on the same machine. Method: docs/performance.md.
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
/** The same V8 flags `npm run start:api` uses. */
const API_NODE_FLAGS = ['--max-semi-space-size=64'];
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const API_PORT = 3900;
const BARE_PORT = 3901;
/**
 * BENCH_BASELINE_DIST: the dist/ of another build (e.g. the last release, built in a git
 * worktree). Its API runs beside this one, on the same database and key, and is measured in
 * the same alternating rounds: the change's cost without the machine's drift between runs.
 */
const BASELINE_DIST = process.env.BENCH_BASELINE_DIST;
const BASELINE_PORT = 3905;
const ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef';
/** The bare baselines (bench/bare-app.ts): no envelope, ours in the adapter, an interceptor. */
const BARE_TARGETS = [
  { name: 'bare NestJS route (GET /bare)', envelope: 'none', port: BARE_PORT },
  { name: 'bare + envelope in adapter', envelope: 'adapter', port: BARE_PORT + 1 },
  { name: 'bare + envelope interceptor', envelope: 'interceptor', port: BARE_PORT + 2 },
];

const pct = (r: number) => `${(r * 100).toFixed(1)}%`;
const median1 = (xs: number[]) => xs[Math.floor(xs.length / 2)];

/** a[i] / b[i] for each round, sorted (each round measures every target back to back). */
function perRoundRatios(a: LoadResult[], b: LoadResult[]): number[] {
  return b.map((x, i) => a[i].requestsPerSec / x.requestsPerSec).sort((x, y) => x - y);
}

async function main(): Promise<void> {
  const base = loadConfig();
  const dbUrl = new URL(base.databaseUrl);
  dbUrl.pathname = '/seo_api_bench';
  const databaseUrl = dbUrl.toString();
  const adminDbUrl = new URL(databaseUrl);
  adminDbUrl.pathname = '/postgres';
  const admin = new Client({ connectionString: adminDbUrl.toString() });
  await admin.connect();
  await admin.query('DROP DATABASE IF EXISTS seo_api_bench WITH (FORCE)');
  await admin.end();
  await ensureDatabase(databaseUrl);
  await runMigrations(databaseUrl);

  const dist = path.resolve(__dirname, '..');
  const env = {
    ...process.env,
    PORT: String(API_PORT),
    DATABASE_URL: databaseUrl,
    REDIS_PREFIX: `seobench:${Date.now()}`,
    ADMIN_TOKEN,
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
  };
  const pinned = pinLoadGenerator();
  const api = await startProcess(
    path.join(dist, 'apps/api/src/main.js'),
    env,
    `http://127.0.0.1:${API_PORT}/health/live`,
    API_NODE_FLAGS,
    pinned,
  );
  const baseline = BASELINE_DIST
    ? await startProcess(
        path.join(path.resolve(BASELINE_DIST), 'apps/api/src/main.js'),
        { ...env, PORT: String(BASELINE_PORT) },
        `http://127.0.0.1:${BASELINE_PORT}/health/live`,
        API_NODE_FLAGS,
        pinned,
      )
    : null;
  const bareVariants = await Promise.all(
    BARE_TARGETS.map(({ envelope, port }) =>
      startProcess(
        path.join(dist, 'bench/bare-app.js'),
        { ...process.env, PORT: String(port), BARE_ENVELOPE: envelope },
        `http://127.0.0.1:${port}/bare`,
        [],
        pinned,
      ),
    ),
  );
  try {
    const adminHeaders = {
      Authorization: `Bearer ${ADMIN_TOKEN}`,
      'Content-Type': 'application/json',
    };
    const adminUrl = `http://127.0.0.1:${API_PORT}/admin/v1`;
    const account = (await (
      await fetch(`${adminUrl}/accounts`, {
        method: 'POST',
        headers: adminHeaders,
        body: JSON.stringify({ name: 'bench', plan: 'agency' }),
      })
    ).json()) as { data: { id: number } };
    const id = account.data.id;
    await fetch(`${adminUrl}/accounts/${id}`, {
      method: 'PATCH',
      headers: adminHeaders,
      body: JSON.stringify({
        overrides: { api_calls_per_month: 'unlimited', requests_per_minute: 1_000_000_000 },
      }),
    });
    const key = (
      (await (
        await fetch(`${adminUrl}/accounts/${id}/api-keys`, {
          method: 'POST',
          headers: adminHeaders,
          body: JSON.stringify({ label: 'bench' }),
        })
      ).json()) as { data: { key: string } }
    ).data.key;

    // Alternate the targets round by round (in reverse order every other round) so drift on a
    // shared machine hits all alike.
    const targets = [
      ...BARE_TARGETS.map((b) => ({
        name: b.name,
        url: `http://127.0.0.1:${b.port}/bare`,
        headers: {},
      })),
      {
        name: 'full pipeline (GET /api/v1/usage)',
        url: `http://127.0.0.1:${API_PORT}/api/v1/usage`,
        headers: { Authorization: `Bearer ${key}` },
      },
      ...(baseline
        ? [
            {
              name: 'baseline build, full pipeline (GET /api/v1/usage)',
              url: `http://127.0.0.1:${BASELINE_PORT}/api/v1/usage`,
              headers: { Authorization: `Bearer ${key}` },
            },
          ]
        : []),
    ];
    const runs: LoadResult[][] = targets.map(() => []);
    for (let round = 0; round < ROUNDS; round++) {
      const warmup = round === 0 ? 3 : 1;
      // Odd rounds run the targets in reverse order, so no target always follows another.
      const order = [...targets.keys()];
      if (round % 2 === 1) order.reverse();
      const measured: LoadResult[] = [];
      for (const i of order) {
        const target = targets[i];
        measured[i] = await load(
          target.name,
          target.url,
          target.headers,
          SECONDS,
          CONNECTIONS,
          warmup,
        );
      }
      measured.forEach((m, i) => runs[i].push(m));
      console.log(
        `round ${round + 1}: ` +
          targets
            .map((tg, i) => `${tg.name.split(' (')[0]} ${runs[i][round].requestsPerSec}`)
            .join(', ') +
          ' req/s',
      );
    }
    const [bareRuns, adapterRuns, interceptorRuns, fullRuns, baselineRuns] = runs;
    const results = runs.map(median);
    printTable(results);
    // Each round measures every target back to back; the median of the per-round ratios is
    // the figure least moved by drift on a shared machine.
    const ratios = perRoundRatios(fullRuns, bareRuns);
    const ratio = ratios[Math.floor(ratios.length / 2)];
    const interceptorRatios = perRoundRatios(interceptorRuns, adapterRuns);
    console.log(
      `\nper-round full/bare ratios: ${ratios.map((r) => `${(r * 100).toFixed(1)}%`).join(', ')}`,
    );
    console.log(
      `full pipeline / bare route: ${(ratio * 100).toFixed(1)}% of the bare route's req/s (median of rounds; target ≥ 35%)`,
    );
    if (baselineRuns) {
      const baseRatios = perRoundRatios(baselineRuns, bareRuns);
      const diffs = fullRuns
        .map(
          (x, i) =>
            (x.requestsPerSec - baselineRuns[i].requestsPerSec) / bareRuns[i].requestsPerSec,
        )
        .sort((a, b) => a - b);
      console.log(
        `baseline build / bare route: ${pct(baseRatios[Math.floor(baseRatios.length / 2)])} ` +
          `(per round: ${baseRatios.map(pct).join(', ')}); ` +
          `this build minus baseline, in bare-route ratio points per round: ${diffs
            .map((d) => (d * 100).toFixed(1))
            .join(', ')} (median ${(median1(diffs) * 100).toFixed(1)})`,
      );
    }
    console.log(
      `envelope interceptor / envelope in the adapter (bare routes): ${pct(median1(interceptorRatios))} ` +
        `(per round: ${interceptorRatios.map(pct).join(', ')}); ` +
        `adapter envelope / no envelope: ${pct(median1(perRoundRatios(adapterRuns, bareRuns)))}`,
    );
    console.log(
      `median of ${ROUNDS} alternating rounds of ${SECONDS} s per target, ${CONNECTIONS} connections, API log level ${env.LOG_LEVEL}, ` +
        (pinned
          ? 'servers pinned to CPU 0 and the load generator to the last CPU'
          : 'no CPU pinning'),
    );
    if (results.some((r) => r.errors > 0 || (r.name.includes('full pipeline') && r.non2xx > 0))) {
      console.error('Some requests failed: the figures are not valid.');
      process.exitCode = 1;
    }
  } finally {
    if (baseline) await stopProcess(baseline);
    await stopProcess(api);
    for (const b of bareVariants) await stopProcess(b);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
