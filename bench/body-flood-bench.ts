import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { Client } from 'pg';
import { loadConfig } from '@app/core';
import { ensureDatabase, runMigrations } from '@app/database';
import { startProcess, stopProcess } from './bench-support';

/**
 * Issue 35, finding 7: anonymous 10 MB JSON bodies against /health/live latency
 * (docs/reliability.md, "Timeouts"). Starts a compiled API (BENCH_API_DIST: the dist folder
 * to run, default this build's), measures GET /health/live alone, then while
 * BODY_FLOOD_CONNECTIONS (48) clients post 10 MB anonymous bodies at once, BODY_FLOOD_ROUNDS (5)
 * times.
 *
 *   npm run build && node dist/bench/body-flood-bench.js
 */
const CONNECTIONS = Number(process.env.BODY_FLOOD_CONNECTIONS ?? 48);
const BODY_BYTES = 10 * 1024 * 1024 - 64;
const SAMPLES = Number(process.env.BODY_FLOOD_SAMPLES ?? 200);
const ROUNDS = Number(process.env.BODY_FLOOD_ROUNDS ?? 5);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

function get(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = http.get({ host: '127.0.0.1', port, path: '/health/live', agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(Number(process.hrtime.bigint() - started) / 1e6));
    });
    req.on('error', reject);
  });
}

function post(port: number, body: Buffer): Promise<number> {
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/v1/keyword-research',
        agent: false,
        headers: { 'Content-Type': 'application/json', 'Content-Length': body.length },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', () => resolve(-1));
    req.end(body);
  });
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function sample(port: number, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    out.push(await get(port));
    await new Promise((r) => setTimeout(r, 10));
  }
  return out.sort((a, b) => a - b);
}

async function main(): Promise<void> {
  const base = loadConfig();
  const dbUrl = new URL(base.databaseUrl);
  dbUrl.pathname = '/seo_api_bench_body_flood';
  const databaseUrl = dbUrl.toString();
  const adminDbUrl = new URL(databaseUrl);
  adminDbUrl.pathname = '/postgres';
  const admin = new Client({ connectionString: adminDbUrl.toString() });
  await admin.connect();
  await admin.query('DROP DATABASE IF EXISTS seo_api_bench_body_flood WITH (FORCE)');
  await admin.end();
  await ensureDatabase(databaseUrl);
  await runMigrations(databaseUrl);

  const dist = process.env.BENCH_API_DIST ?? path.resolve(__dirname, '..');
  const port = await freePort();
  const api = await startProcess(
    path.join(dist, 'apps/api/src/main.js'),
    {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      REDIS_PREFIX: `seobench-flood:${Date.now()}`,
      LOG_LEVEL: 'warn',
    },
    `http://127.0.0.1:${port}/health/live`,
  );
  try {
    await sample(port, 20);
    const idle = await sample(port, SAMPLES);
    const body = Buffer.from(`{"keyword":"${'x'.repeat(BODY_BYTES - 14)}"}`);
    // ROUNDS rounds of CONNECTIONS posts sent at once; /health/live sampled while any is open.
    const statuses = new Map<number, number>();
    const loaded: number[] = [];
    const roundMs: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      let open = CONNECTIONS;
      const started = Date.now();
      const round = Array.from({ length: CONNECTIONS }, async () => {
        const s = await post(port, body);
        statuses.set(s, (statuses.get(s) ?? 0) + 1);
        open--;
      });
      while (open > 0) {
        loaded.push(await get(port));
        await new Promise((res) => setTimeout(res, 5));
      }
      await Promise.all(round);
      roundMs.push(Date.now() - started);
    }
    loaded.sort((a, b) => a - b);
    const line = (name: string, xs: number[]) =>
      `${name.padEnd(28)} median ${pct(xs, 50).toFixed(1)} ms  p95 ${pct(xs, 95).toFixed(1)} ms  max ${xs[xs.length - 1].toFixed(1)} ms`;
    console.log(`API: ${dist}`);
    console.log(line('/health/live idle', idle));
    console.log(line(`/health/live, ${CONNECTIONS}×10 MB posts`, loaded));
    console.log(
      `rounds of ${CONNECTIONS} posts: ${roundMs.join(', ')} ms (${loaded.length} samples)`,
    );
    console.log(
      `posts answered: ${[...statuses].map(([s, n]) => `${s === -1 ? 'error' : s}×${n}`).join(', ')}`,
    );
  } finally {
    await stopProcess(api);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
