import { randomBytes } from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import { Client } from 'pg';
import { loadConfig } from '@app/core';
import { ensureDatabase, runMigrations } from '@app/database';
import {
  LoadResult,
  cpuProfiling,
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
/**
 * BENCH_PORT_BASE (3900) and BENCH_DATABASE (seo_api_bench): another port range and database,
 * so that two benches on one machine (other worktrees) do not meet.
 */
const PORT_BASE = Number(process.env.BENCH_PORT_BASE ?? 3900);
const BENCH_DATABASE = process.env.BENCH_DATABASE ?? 'seo_api_bench';
if (!/^[a-z_][a-z0-9_]*$/.test(BENCH_DATABASE)) throw new Error('BENCH_DATABASE: a plain name');
const API_PORT = PORT_BASE;
const BARE_PORT = PORT_BASE + 1;
/**
 * BENCH_BASELINE_DIST: the dist/ of another build (e.g. the last release, built in a git
 * worktree). Its API runs beside this one, on the same database and key, and is measured in
 * the same alternating rounds: the change's cost without the machine's drift between runs.
 */
const BASELINE_DIST = process.env.BENCH_BASELINE_DIST;
const BASELINE_PORT = PORT_BASE + 5;
const ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef';
/** The bare baselines (bench/bare-app.ts): no envelope, ours in the adapter, an interceptor. */
const BARE_TARGETS = [
  { name: 'bare NestJS route (GET /bare)', envelope: 'none', port: BARE_PORT },
  { name: 'bare + envelope in adapter', envelope: 'adapter', port: BARE_PORT + 1 },
  { name: 'bare + envelope interceptor', envelope: 'interceptor', port: BARE_PORT + 2 },
];

/** BENCH_RANK=0 leaves out the rank target (GET /rank/keywords?limit=100 over 200 keywords × 30 days). */
const WITH_RANK = process.env.BENCH_RANK !== '0';
const RANK_KEYWORDS = 200;
const RANK_DAYS = 30;

interface Target {
  name: string;
  url: string;
  headers: Record<string, string>;
  pid: number | undefined;
  /** Headers that change on every request (a different wrong key each time). */
  varyHeaders?: () => Record<string, string>;
}

/** BENCH_BAD_KEYS=0 leaves out the wrong-key (401) targets. */
const WITH_BAD_KEYS = process.env.BENCH_BAD_KEYS !== '0';

/**
 * A different wrong key on every request, so no cache can answer: `current` keys have the
 * current shape (58 characters, base62) and fail the checksum (docs/api-keys.md); `legacy`
 * ones have the shape of keys issued before it (52 characters, base64url), which are still
 * looked up. A random part and a counter: cheap for the load generator.
 */
function wrongKeys(kind: 'current' | 'legacy'): () => Record<string, string> {
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  const random = Array.from(randomBytes(38), (b) => alphabet[b % 62]).join('');
  let n = 0;
  return () => {
    const counter = (n++).toString(36).padStart(11, '0');
    // 38 + 11 = 49 after the prefix (current); 32 + 11 = 43 (legacy).
    const body = kind === 'current' ? random + counter : random.slice(0, 32) + counter;
    return { Authorization: `Bearer seo_live_${body}` };
  };
}

const pct = (r: number) => `${(r * 100).toFixed(1)}%`;
/** The CPU one request costs the whole machine: the server, PostgreSQL and the load generator. */
const allIn = (x: LoadResult) => (x.cpuMs ?? 0) + (x.dbCpuMs ?? 0) + (x.clientCpuMs ?? 0);
const median1 = (xs: number[]) => xs[Math.floor(xs.length / 2)];

/** a[i] / b[i] for each round, sorted (each round measures every target back to back). */
function perRoundRatios(a: LoadResult[], b: LoadResult[]): number[] {
  return b.map((x, i) => a[i].requestsPerSec / x.requestsPerSec).sort((x, y) => x - y);
}

/**
 * One rank project of RANK_KEYWORDS keywords with RANK_DAYS daily checks each, through the
 * admin API (as ingestion writes them), for the rank target.
 */
async function seedRank(
  adminUrl: string,
  headers: Record<string, string>,
  accountId: number,
): Promise<void> {
  const post = async (path: string, body: unknown): Promise<{ data: { id: number } }> => {
    const res = await fetch(`${adminUrl}${path}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { data: { id: number } };
  };
  const project = await post(`/accounts/${accountId}/rank-projects`, {
    domain: 'example.com',
    name: 'bench project',
  });
  const today = Date.now();
  for (let k = 0; k < RANK_KEYWORDS; k++) {
    const keyword = await post(`/rank-projects/${project.data.id}/keywords`, {
      keyword: `bench keyword ${k}`,
      country: 'US',
      language: 'en',
      device: k % 2 ? 'mobile' : 'desktop',
      search_volume: 1000 + k,
      difficulty: k % 100,
      cpc: 1.25,
    });
    const checks = Array.from({ length: RANK_DAYS }, (_, d) => ({
      check_date: new Date(today - (RANK_DAYS - 1 - d) * 86_400_000).toISOString().slice(0, 10),
      position: (k + d) % 17 === 0 ? null : 1 + ((k * 7 + d) % 100),
      landing_page: `https://example.com/page-${k}`,
      featured_snippet: d % 5 === 0,
    }));
    await post(`/tracked-keywords/${keyword.data.id}/checks`, { checks });
  }
}

/** The Content-Encoding of an answer, as sent (Node's http client does not decode). */
function answerEncoding(url: string, headers: Record<string, string>): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.headers['content-encoding']));
      })
      .on('error', reject);
  });
}

async function main(): Promise<void> {
  const base = loadConfig();
  const dbUrl = new URL(base.databaseUrl);
  dbUrl.pathname = `/${BENCH_DATABASE}`;
  const databaseUrl = dbUrl.toString();
  const adminDbUrl = new URL(databaseUrl);
  adminDbUrl.pathname = '/postgres';
  const admin = new Client({ connectionString: adminDbUrl.toString() });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${BENCH_DATABASE} WITH (FORCE)`);
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
  // BENCH_CPU_PROFILE=<dir>: a V8 CPU profile of this build's API over the last round's
  // measured load (bench/profile-top.ts prints its top functions).
  const profiling = cpuProfiling(dist);
  const api = await startProcess(
    path.join(dist, 'apps/api/src/main.js'),
    env,
    `http://127.0.0.1:${API_PORT}/health/live`,
    [...API_NODE_FLAGS, ...profiling.flags],
    pinned,
  );
  const baseline = BASELINE_DIST
    ? await startProcess(
        path.join(path.resolve(BASELINE_DIST), 'apps/api/src/main.js'),
        { ...env, PORT: String(BASELINE_PORT) },
        `http://127.0.0.1:${BASELINE_PORT}/health/live`,
        [...API_NODE_FLAGS, ...profiling.flags],
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

    if (WITH_RANK) {
      await seedRank(adminUrl, adminHeaders, id);
      // The compressed target must really be compressed (brotli), else its figures mean nothing.
      const encoding = await answerEncoding(
        `http://127.0.0.1:${API_PORT}/api/v1/rank/keywords?limit=100`,
        { Authorization: `Bearer ${key}`, 'Accept-Encoding': 'gzip, br' },
      );
      if (encoding !== 'br') throw new Error(`rank keywords compressed: got ${encoding ?? 'none'}`);
    }

    // Alternate the targets round by round (in reverse order every other round) so drift on a
    // shared machine hits all alike.
    const auth = { Authorization: `Bearer ${key}` };
    const apiTargets = (port: number, pid: number | undefined, label: string): Target[] => [
      {
        name: `${label}full pipeline (GET /api/v1/usage)`,
        url: `http://127.0.0.1:${port}/api/v1/usage`,
        headers: auth,
        pid,
      },
      ...(WITH_RANK
        ? [
            {
              name: `${label}rank keywords (GET /api/v1/rank/keywords?limit=100)`,
              url: `http://127.0.0.1:${port}/api/v1/rank/keywords?limit=100`,
              headers: auth,
              pid,
            },
            // The same page asked compressed (brotli is chosen): the kept page's compressed
            // prefix is served, only the envelope's meta is added per request.
            {
              name: `${label}rank keywords, compressed (Accept-Encoding: gzip, br)`,
              url: `http://127.0.0.1:${port}/api/v1/rank/keywords?limit=100`,
              headers: { ...auth, 'Accept-Encoding': 'gzip, br' },
              pid,
            },
          ]
        : []),
      ...(WITH_BAD_KEYS
        ? [
            {
              name: `${label}wrong key, checksum fails (401)`,
              url: `http://127.0.0.1:${port}/api/v1/usage`,
              headers: {},
              pid,
              varyHeaders: wrongKeys('current'),
            },
            {
              name: `${label}wrong key, legacy shape (401)`,
              url: `http://127.0.0.1:${port}/api/v1/usage`,
              headers: {},
              pid,
              varyHeaders: wrongKeys('legacy'),
            },
          ]
        : []),
    ];
    const bareTargets: Target[] = BARE_TARGETS.map((b, i) => ({
      name: b.name,
      url: `http://127.0.0.1:${b.port}/bare`,
      headers: {},
      pid: bareVariants[i].pid,
    }));
    const ours = apiTargets(API_PORT, api.pid, '');
    const theirs = baseline ? apiTargets(BASELINE_PORT, baseline.pid, 'baseline build, ') : [];
    const targets = [...bareTargets, ...ours, ...theirs];
    const runs = new Map<Target, LoadResult[]>(targets.map((t) => [t, []]));
    for (let round = 0; round < ROUNDS; round++) {
      const warmup = round === 0 ? 3 : 1;
      // Odd rounds run the targets in reverse order, so no target always follows another.
      const order = round % 2 === 1 ? [...targets].reverse() : targets;
      for (const target of order) {
        runs
          .get(target)!
          .push(
            await load(
              target.name,
              target.url,
              target.headers,
              SECONDS,
              CONNECTIONS,
              warmup,
              undefined,
              target.pid,
              target.varyHeaders,
            ),
          );
      }
      console.log(
        `round ${round + 1}: ` +
          targets
            .map((t) => `${t.name.split(' (')[0]} ${runs.get(t)![round].requestsPerSec}`)
            .join(', ') +
          ' req/s',
      );
    }
    // With BENCH_CPU_PROFILE, one more load of each of this build's API targets under the
    // profiler, outside the figures (sampling costs the profiled process CPU).
    if (process.env.BENCH_CPU_PROFILE) {
      for (const t of ours) {
        await load(
          t.name,
          t.url,
          t.headers,
          SECONDS,
          CONNECTIONS,
          1,
          profiling.window(api),
          undefined,
          t.varyHeaders,
        );
      }
      for (const t of theirs) {
        await load(
          t.name,
          t.url,
          t.headers,
          SECONDS,
          CONNECTIONS,
          1,
          profiling.window(baseline!),
          undefined,
          t.varyHeaders,
        );
      }
    }
    printTable(targets.map((t) => median(runs.get(t)!)));

    const bare = runs.get(bareTargets[0])!;
    console.log('');
    for (const t of ours) {
      const mine = runs.get(t)!;
      const ratios = perRoundRatios(mine, bare);
      const cpu = median(mine).cpuMs;
      const bareCpu = median(bare).cpuMs;
      const user = median(mine).userCpuMs;
      const bareUser = median(bare).userCpuMs;
      console.log(
        `${t.name} / bare route: ${pct(median1(ratios))} of its req/s (median of per-round ratios ${ratios.map(pct).join(', ')}); ` +
          `server CPU per request ${cpu} ms against the bare route's ${bareCpu} ms (bare / this: ${cpu && bareCpu ? pct(bareCpu / cpu) : '—'}, the req/s ratio of two CPU-bound processes); ` +
          `user-space CPU per request ${user} ms against ${bareUser} ms (bare / this: ${user && bareUser ? pct(bareUser / user) : '—'}); ` +
          `all-in CPU per request ${allIn(median(mine)).toFixed(3)} ms against the bare route's ${allIn(median(bare)).toFixed(3)} ms`,
      );
    }
    theirs.forEach((t, i) => {
      const base = runs.get(t)!;
      const mine = runs.get(ours[i])!;
      const points = mine
        .map((x, r) => (x.requestsPerSec - base[r].requestsPerSec) / bare[r].requestsPerSec)
        .sort((a, b) => a - b);
      const change = (of: (x: LoadResult) => number) =>
        mine.map((x, r) => (of(x) - of(base[r])) / (of(base[r]) || 1)).sort((a, b) => a - b);
      const cpu = change((x) => x.cpuMs ?? 0);
      const user = change((x) => x.userCpuMs ?? 0);
      const machine = change(allIn);
      console.log(
        `${ours[i].name}, this build against the baseline build: ${pct(median1(perRoundRatios(base, bare)))} of the bare route for the baseline; ` +
          `difference per round in bare-route points ${points.map((d) => (d * 100).toFixed(1)).join(', ')} (median ${(median1(points) * 100).toFixed(1)}); ` +
          `server CPU per request ${cpu.map(pct).join(', ')} (median ${pct(median1(cpu))}); ` +
          `its user space ${user.map(pct).join(', ')} (median ${pct(median1(user))}); ` +
          `all-in CPU per request (server + PostgreSQL + load generator) ${machine.map(pct).join(', ')} (median ${pct(median1(machine))})`,
      );
    });
    const [, adapterRuns, interceptorRuns] = bareTargets.map((t) => runs.get(t)!);
    console.log(
      `envelope interceptor / envelope in the adapter (bare routes): ${pct(median1(perRoundRatios(interceptorRuns, adapterRuns)))}; ` +
        `adapter envelope / no envelope: ${pct(median1(perRoundRatios(adapterRuns, bare)))}`,
    );
    console.log(
      `median of ${ROUNDS} alternating rounds of ${SECONDS} s per target, ${CONNECTIONS} connections, API log level ${env.LOG_LEVEL}, ` +
        (pinned
          ? 'servers pinned to CPU 0 and the load generator to the last CPU'
          : 'no CPU pinning') +
        '. Targets: GET /usage ≥ 75% and rank keywords ≥ 35% of the bare route; rank compressed ≥ 30%; ' +
        'a checksum-failing key (401) ≥ the ratio of GET /usage.',
    );
    const all = [...runs.values()].flat();
    // The wrong-key targets answer 401 by design.
    const expectsOk = (r: LoadResult) => !r.name.startsWith('bare') && !r.name.endsWith('(401)');
    if (all.some((r) => r.errors > 0 || (expectsOk(r) && r.non2xx > 0))) {
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
