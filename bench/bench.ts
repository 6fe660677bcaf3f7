import path from 'node:path';
import { Client } from 'pg';
import { loadConfig } from '@app/core';
import { ensureDatabase, runMigrations } from '@app/database';
import { load, printTable, startProcess, stopProcess } from './bench-support';

/**
 * `npm run bench`: the full request pipeline (GET /api/v1/usage: key lookup, plan check,
 * per-minute limit in Redis, monthly meter in PostgreSQL, envelope, JSON logs) against a
 * bare NestJS route, in the same run on the same machine. Method: docs/performance.md.
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const API_PORT = 3900;
const BARE_PORT = 3901;
const ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef';

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
  const api = await startProcess(path.join(dist, 'apps/api/src/main.js'), env, `http://127.0.0.1:${API_PORT}/health/live`);
  const bare = await startProcess(path.join(dist, 'bench/bare-app.js'), { ...process.env, PORT: String(BARE_PORT) }, `http://127.0.0.1:${BARE_PORT}/bare`);
  try {
    const adminHeaders = { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' };
    const adminUrl = `http://127.0.0.1:${API_PORT}/admin/v1`;
    const account = (await (await fetch(`${adminUrl}/accounts`, { method: "POST", headers: adminHeaders, body: JSON.stringify({ name: "bench", plan: "agency" }) })).json()) as { data: { id: number } };
    const id = account.data.id;
    await fetch(`${adminUrl}/accounts/${id}`, {
      method: 'PATCH',
      headers: adminHeaders,
      body: JSON.stringify({ overrides: { api_calls_per_month: 'unlimited', requests_per_minute: 1_000_000_000 } }),
    });
    const key = ((await (await fetch(`${adminUrl}/accounts/${id}/api-keys`, { method: "POST", headers: adminHeaders, body: JSON.stringify({ label: "bench" }) })).json()) as { data: { key: string } }).data.key;

    const results = [
      await load('bare NestJS route (GET /bare)', `http://127.0.0.1:${BARE_PORT}/bare`, {}, SECONDS, CONNECTIONS),
      await load('full pipeline (GET /api/v1/usage)', `http://127.0.0.1:${API_PORT}/api/v1/usage`, { Authorization: `Bearer ${key}` }, SECONDS, CONNECTIONS),
    ];
    printTable(results);
    const ratio = results[1].requestsPerSec / results[0].requestsPerSec;
    console.log(`\nfull pipeline / bare route: ${(ratio * 100).toFixed(1)}% of the bare route's req/s (target ≥ 35%)`);
    console.log(`${SECONDS}s per target after a 2 s warm-up, ${CONNECTIONS} connections, API log level ${env.LOG_LEVEL}`);
    if (results.some((r) => r.errors > 0 || (r.name.startsWith('full') && r.non2xx > 0))) {
      console.error('Some requests failed: the figures are not valid.');
      process.exitCode = 1;
    }
  } finally {
    await stopProcess(api);
    await stopProcess(bare);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
