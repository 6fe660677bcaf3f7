import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { loadConfig } from '@app/core';
import { ensureDatabase, runMigrations } from '@app/database';
import { startProcess, stopProcess } from './bench-support';

/**
 * `npm run bench:usage-history`: GET /account/v1/usage/history for an account with 10 keys
 * and 1,000 calls a day over 400 days (spread over 6 endpoints and the three cost groups:
 * about 60 history rows a day, 24,000 in all), seeded in SQL into its own database
 * `seo_bench_usage_history` (re-created each run). Sequential requests over real HTTP with a
 * session cookie; prints p50/p95/p99 for days=30, days=400 and the console page. Target:
 * p50 under 20 ms for days=400. Results: docs/performance.md, "Usage history".
 */
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const WARMUP = 20;
const PORT = 3921;
const ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef';
const KEYS = 10;
const DAYS = 400;
const CALLS_PER_DAY = 1_000;
const ENDPOINTS: Array<[string, string]> = [
  ['GET /backlinks', 'research'],
  ['POST /keyword-research', 'research'],
  ['GET /rank/keywords', 'your-data'],
  ['GET /gsc/queries', 'your-data'],
  ['GET /usage', 'other'],
  ['GET /jobs/{job_id}', 'other'],
];

const round = (x: number) => Math.round(x * 10) / 10;
function stats(times: number[]) {
  const s = [...times].sort((a, b) => a - b);
  const p = (q: number) => round(s[Math.min(s.length - 1, Math.ceil((q / 100) * s.length) - 1)]);
  return { p50: p(50), p95: p(95), p99: p(99) };
}

async function time(url: string, cookie: string) {
  const times: number[] = [];
  for (let n = 0; n < WARMUP + REQUESTS; n++) {
    const t0 = performance.now();
    const res = await fetch(url, { headers: { Cookie: cookie } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status}`);
    if (n >= WARMUP) times.push(performance.now() - t0);
  }
  return stats(times);
}

async function main(): Promise<void> {
  const base = loadConfig();
  const dbUrl = new URL(base.databaseUrl);
  dbUrl.pathname = '/seo_bench_usage_history';
  const databaseUrl = dbUrl.toString();
  const adminDb = new URL(databaseUrl);
  adminDb.pathname = '/postgres';
  const pgAdmin = new Client({ connectionString: adminDb.toString() });
  await pgAdmin.connect();
  await pgAdmin.query('DROP DATABASE IF EXISTS seo_bench_usage_history WITH (FORCE)');
  await pgAdmin.end();
  await ensureDatabase(databaseUrl);
  await runMigrations(databaseUrl);

  const api = await startProcess(
    path.join(path.resolve(__dirname, '..'), 'apps/api/src/main.js'),
    {
      ...process.env,
      PORT: String(PORT),
      DATABASE_URL: databaseUrl,
      REDIS_PREFIX: `seobench-usage:${Date.now()}`,
      ADMIN_TOKEN,
      LOG_LEVEL: 'warn',
    },
    `http://127.0.0.1:${PORT}/health/live`,
  );
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const baseUrl = `http://127.0.0.1:${PORT}`;
    const headers = { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' };
    const post = async (p: string, body: unknown) => {
      const res = await fetch(`${baseUrl}/admin/v1${p}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
      });
      return ((await res.json()) as { data: { id: number } }).data;
    };
    const account = await post('/accounts', { name: 'usage bench', plan: 'agency' });
    const keyIds: number[] = [];
    for (let k = 0; k < KEYS; k++)
      keyIds.push((await post(`/accounts/${account.id}/api-keys`, { label: `key ${k + 1}` })).id);
    const email = 'usage-bench@example.com';
    const password = 'usage-bench-password-123';
    await post(`/accounts/${account.id}/users`, { email, password });

    // 1,000 calls a day: each key's share, over the endpoints.
    const perRow = Math.round(CALLS_PER_DAY / (KEYS * ENDPOINTS.length));
    const t0 = performance.now();
    await db.query(
      `INSERT INTO usage_daily (account_id, day, key_id, grant_id, endpoint, cost_group, calls)
       SELECT $1, (current_date - d), k, 0, e.endpoint, e.cost_group, $3
       FROM generate_series(0, $2 - 1) AS d, unnest($4::int[]) AS k,
            unnest($5::text[], $6::text[]) AS e (endpoint, cost_group)`,
      [account.id, DAYS, perRow, keyIds, ENDPOINTS.map((e) => e[0]), ENDPOINTS.map((e) => e[1])],
    );
    await db.query('VACUUM ANALYZE usage_daily');
    const rows = (await db.query('SELECT count(*)::int AS n FROM usage_daily')).rows[0].n;
    console.log(
      `seeded ${rows} history rows (${KEYS} keys × ${ENDPOINTS.length} endpoints × ${DAYS} days, ` +
        `${perRow * KEYS * ENDPOINTS.length} calls a day) in ${Math.round(performance.now() - t0)} ms`,
    );

    const session = await fetch(`${baseUrl}/account/v1/session`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    const cookie = (session.headers.get('set-cookie') ?? '').split(';')[0];
    if (!cookie.startsWith('seo_session=')) throw new Error('sign-in failed');

    console.log(`\n${REQUESTS} sequential requests each (after ${WARMUP} warm-up), ms:`);
    console.log('| request | p50 | p95 | p99 |\n|---|---:|---:|---:|');
    for (const [name, url] of [
      ['GET /account/v1/usage/history?days=30', `${baseUrl}/account/v1/usage/history?days=30`],
      ['GET /account/v1/usage/history?days=400', `${baseUrl}/account/v1/usage/history?days=400`],
      ['GET /account (the console page)', `${baseUrl}/account`],
    ] as const) {
      const s = await time(url, cookie);
      console.log(`| ${name} | ${s.p50} | ${s.p95} | ${s.p99} |`);
    }
  } finally {
    await db.end();
    await stopProcess(api);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
