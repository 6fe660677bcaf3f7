import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { addDays, loadConfig, plainDate } from '@app/core';
import {
  RankChecksRepository,
  ReadSql,
  ensureDatabase,
  monthStart,
  runMigrations,
} from '@app/database';
import { GscIngestionRepository } from '@app/database';
import { RankRepository } from '../apps/api/src/rank/rank.repository';
import { load, startProcess, stopProcess } from './bench-support';
import { openBenchSql } from './gsc-large-data';

/**
 * `npm run bench:your-data` (compiles with tsc, no `rm -rf dist`): how the your-data reads
 * grow with the data. Seeds in SQL (generate_series) into its own database
 * `seo_bench_your_data` (created on first run; drop it with `dropdb seo_bench_your_data`),
 * starts the compiled API on it and measures over real HTTP at three sizes each: GSC (16
 * months of facts), rank tracking (keywords × 365 daily checks), AI visibility (projects ×
 * 365 scans). Prints the tables and writes the plot docs/your-data-scaling.svg. Results:
 * docs/performance.md "Your-data at agency scale".
 *
 * Every size lives in its own account (GSC: its own property), all sizes side by side. The
 * table `your_data_bench_seeds` (part, size) records each completed seed: the day it was
 * seeded for, its account / property and its row count. A size is re-used (not re-seeded)
 * when its record is from today and a count check of its data matches; otherwise that size
 * alone is deleted and seeded again. With no record of today for a part (or with
 * YOUR_DATA_RESEED=1), the part's tables are truncated first, which also clears data of
 * older runs. The GSC ingestion measurement writes tomorrow's facts and removes them
 * again (before and after), so the seeded data stay as they were.
 *
 * YOUR_DATA_SIZES=small (default) | full; YOUR_DATA_PARTS=gsc,rank,ai (default all);
 * BENCH_REQUESTS (sequential requests per scenario), BENCH_SECONDS (load duration),
 * YOUR_DATA_SVG (file name of the plot under docs/, default your-data-scaling.svg).
 */
const FULL = process.env.YOUR_DATA_SIZES === 'full';
const PARTS = new Set((process.env.YOUR_DATA_PARTS ?? 'gsc,rank,ai').split(','));
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? (FULL ? 60 : 30));
const WARMUP = Number(process.env.BENCH_WARMUP ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? (FULL ? 8 : 3));
const CONNECTIONS = 50;
const PORT = Number(process.env.BENCH_PORT ?? 3911);
const BARE_PORT = PORT + 1;
const ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef';
const GSC_DAYS = 487; // 16 months
const GSC_SIZES = FULL ? [3_000, 10_000, 30_000] : [100, 300, 1_000]; // facts a day
const RANK_SIZES = FULL ? [1_000, 5_000, 10_000] : [100, 300, 1_000]; // keywords
const AI_SIZES = FULL ? [50, 100, 200] : [10, 20, 50]; // projects
const RANK_PROJECTS = 10;
const DB_NAME = 'seo_bench_your_data';
const RESEED = process.env.YOUR_DATA_RESEED === '1';

interface Stat {
  p50: number;
  p95: number;
  p99: number;
}
interface Point extends Stat {
  group: string;
  scenario: string;
  size: number;
  rows: number;
  rps?: number;
}
const points: Point[] = [];

const round = (x: number) => Math.round(x * 10) / 10;
function stats(times: number[]): Stat {
  const s = [...times].sort((a, b) => a - b);
  const p = (q: number) => round(s[Math.min(s.length - 1, Math.ceil((q / 100) * s.length) - 1)]);
  return { p50: p(50), p95: p(95), p99: p(99) };
}

async function sequential(url: string, key: string): Promise<Stat> {
  const times: number[] = [];
  for (let n = 0; n < WARMUP + REQUESTS; n++) {
    const t0 = performance.now();
    const res = await fetch(url, { headers: { Authorization: `Bearer ${key}` } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status}`);
    if (n >= WARMUP) times.push(performance.now() - t0);
  }
  return stats(times);
}

function benchDatabaseUrl(url: string): string {
  const u = new URL(url);
  u.pathname = `/${DB_NAME}`;
  return u.toString();
}

type BenchSql = Awaited<ReturnType<typeof openBenchSql>>['sql'];

async function benchAccount(sql: BenchSql, label = ''): Promise<number> {
  const row = await sql.one<{ id: number }>(
    `INSERT INTO accounts (name, plan, overrides)
     VALUES ($1, 'agency', '{"api_calls_per_month":"unlimited","requests_per_minute":1000000000}'::jsonb)
     RETURNING id`,
    [`your-data bench (Agency)${label}`],
  );
  return row!.id;
}

// ---- CPU per request: the API (Node), PostgreSQL, the load generator ----------------------
/** CPU time (ms) of a process from /proc (utime + stime, clock ticks of 10 ms); 0 if gone. */
function procCpuMs(pid: number): number {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return 0;
  }
}
/** CPU time (ms) of every `postgres` process on this machine (server and backends). */
function postgresCpuMs(): number {
  let total = 0;
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (readFileSync(`/proc/${d}/comm`, 'utf8').trim() === 'postgres') total += procCpuMs(+d);
    } catch {
      // exited meanwhile
    }
  }
  return total;
}
interface CpuSplit {
  node: number;
  pg: number;
  loadgen: number;
}
let apiPid = 0;
/** Runs a load and reports the CPU ms per request of the API, PostgreSQL and this process. */
async function loadWithCpu(
  name: string,
  url: string,
  headers: Record<string, string>,
): Promise<{ rps: number; cpu: CpuSplit }> {
  await load(name, url, headers, 1, CONNECTIONS, 0); // warm-up, outside the CPU window
  const [n0, p0, l0] = [procCpuMs(apiPid), postgresCpuMs(), process.cpuUsage()];
  const r = await load(name, url, headers, SECONDS, CONNECTIONS, 0);
  const [n1, p1, l1] = [procCpuMs(apiPid), postgresCpuMs(), process.cpuUsage(l0)];
  if (r.non2xx || r.errors) throw new Error(`${name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  const requests = r.requestsPerSec * SECONDS;
  const per = (ms: number) => Math.round((ms / requests) * 100) / 100;
  const cpu = { node: per(n1 - n0), pg: per(p1 - p0), loadgen: per((l1.user + l1.system) / 1000) };
  cpuRows.push({ name, rps: r.requestsPerSec, ...cpu });
  return { rps: r.requestsPerSec, cpu };
}
const cpuRows: Array<{ name: string; rps: number } & CpuSplit> = [];

// ---- Seed records (re-use without re-seeding) ------------------------------------------
type Part = 'gsc' | 'rank' | 'ai';
interface Seed {
  size: number;
  accountId: number;
  /** GSC: the property id. */
  refId: number | null;
}
const PART_TABLES: Record<Part, string> = {
  gsc: 'gsc_rows, gsc_daily_rollups, gsc_weekly_rollups, gsc_monthly_rollups',
  rank: 'rank_checks, tracked_keywords, rank_projects',
  ai: 'ai_visibility_competitors, ai_visibility_snapshots, ai_visibility_projects',
};

async function ensureSeedTable(sql: BenchSql): Promise<void> {
  await sql.run(`CREATE TABLE IF NOT EXISTS your_data_bench_seeds (
    part text NOT NULL, size integer NOT NULL, seeded_on date NOT NULL, account_id integer NOT NULL,
    ref_id integer, rows bigint NOT NULL, seed_seconds integer NOT NULL,
    PRIMARY KEY (part, size))`);
}

/** The part's data rows for a size, counted the cheap way (GSC: first and last day only). */
async function countCheck(sql: BenchSql, part: Part, seed: Seed, today: string): Promise<number> {
  if (part === 'gsc') {
    const first = plainDate(addDays(new Date(`${today}T00:00:00Z`), -(GSC_DAYS - 1)));
    const r = await sql.one<{ n: number; w: boolean }>(
      `SELECT (SELECT count(*)::int FROM gsc_rows WHERE property_id = $1 AND date IN ($2::date, $3::date)) AS n,
              EXISTS (SELECT 1 FROM gsc_weekly_rollups WHERE property_id = $1) AS w`,
      [seed.refId, first, today],
    );
    return r!.w ? (r!.n / 2) * GSC_DAYS : -1;
  }
  const r = await sql.one<{ n: number }>(
    part === 'rank'
      ? `SELECT count(*)::int AS n FROM rank_checks WHERE account_id = $1`
      : `SELECT count(*)::int AS n FROM ai_visibility_snapshots WHERE account_id = $1`,
    [seed.accountId],
  );
  return r!.n;
}

/**
 * The seeds of `sizes` for a part: re-used when recorded today and their count check
 * matches, else (re-)seeded by `seed` and recorded. `expected(size)` is the row count.
 */
async function ensureSeeds(
  sql: BenchSql,
  part: Part,
  sizes: number[],
  today: string,
  expected: (size: number) => number,
  seed: (size: number, accountId: number) => Promise<number | null>,
): Promise<Seed[]> {
  const recorded = await sql.rows<{ size: number; account_id: number; ref_id: number | null }>(
    `SELECT size, account_id, ref_id FROM your_data_bench_seeds WHERE part = $1 AND seeded_on = $2::date`,
    [part, today],
  );
  const truncate = RESEED || recorded.length === 0;
  if (truncate) {
    console.log(
      `${part}: no seed of today (or YOUR_DATA_RESEED=1); truncating ${PART_TABLES[part]}`,
    );
    await sql.run(`TRUNCATE ${PART_TABLES[part]}`);
    await sql.run(`DELETE FROM your_data_bench_seeds WHERE part = $1`, [part]);
  }
  const valid = new Map<number, Seed>();
  for (const r of truncate ? [] : recorded) {
    const s: Seed = { size: r.size, accountId: r.account_id, refId: r.ref_id };
    if (sizes.includes(r.size) && (await countCheck(sql, part, s, today)) === expected(r.size))
      valid.set(r.size, s);
  }
  const seeds: Seed[] = [];
  for (const size of sizes) {
    const found = valid.get(size);
    if (found) {
      console.log(`${part} ${size.toLocaleString('en')}: re-using the seed of ${today}`);
      seeds.push(found);
      continue;
    }
    const old = recorded.find((r) => r.size === size);
    if (old && !truncate) await deleteSeed(sql, part, old.account_id, old.ref_id);
    await sql.run(`DELETE FROM your_data_bench_seeds WHERE part = $1 AND size = $2`, [part, size]);
    console.log(`${part} ${size.toLocaleString('en')}: seeding`);
    const t0 = Date.now();
    const accountId = await benchAccount(sql, ` ${part} ${size}`);
    const refId = await seed(size, accountId);
    await sql.run(
      `INSERT INTO your_data_bench_seeds (part, size, seeded_on, account_id, ref_id, rows, seed_seconds)
       VALUES ($1, $2, $3::date, $4, $5, $6, $7)`,
      [part, size, today, accountId, refId, expected(size), Math.round((Date.now() - t0) / 1000)],
    );
    seeds.push({ size, accountId, refId });
  }
  return seeds;
}

/** Removes one size's data (an invalid record while other sizes of the part are kept). */
async function deleteSeed(sql: BenchSql, part: Part, accountId: number, refId: number | null) {
  if (part === 'gsc') {
    for (const t of ['gsc_daily_rollups', 'gsc_weekly_rollups', 'gsc_monthly_rollups', 'gsc_rows'])
      await sql.run(`DELETE FROM ${t} WHERE property_id = $1`, [refId]);
  } else if (part === 'rank') {
    await sql.run(`DELETE FROM rank_projects WHERE account_id = $1`, [accountId]);
  } else {
    await sql.run(`DELETE FROM ai_visibility_projects WHERE account_id = $1`, [accountId]);
  }
}

async function apiKey(accountId: number): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${PORT}/admin/v1/accounts/${accountId}/api-keys`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ label: 'your-data bench' }),
  });
  return ((await res.json()) as { data: { key: string } }).data.key;
}

async function timed<T>(label: string, work: () => Promise<T>): Promise<T> {
  const t0 = Date.now();
  const r = await work();
  console.log(`  ${label}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return r;
}

// ---- GSC ------------------------------------------------------------------------------
async function seedGsc(sql: BenchSql, accountId: number, perDay: number, today: string) {
  const gsc = new GscIngestionRepository(sql);
  const prop = await gsc.upsertProperty(
    accountId,
    {
      property_uri: `sc-domain:bench-${perDay}.example`,
      display_name: 'bench',
      google_email: 'b@bench.example',
    },
    new Date(),
  );
  const propertyId = prop!.row.id;
  const first = plainDate(addDays(new Date(`${today}T00:00:00Z`), -(GSC_DAYS - 1)));
  const months: string[] = [];
  for (let m = monthStart(first); m <= monthStart(today, 2); m = monthStart(m, 1)) months.push(m);
  await gsc.partitions.ensureMonths(months);
  const queriesPerDay = Math.ceil(perDay / 3);
  const vocabulary = queriesPerDay * 2;
  await timed(`insert ${(perDay * GSC_DAYS).toLocaleString('en')} facts`, () =>
    sql.run(
      `INSERT INTO gsc_rows (property_id, account_id, date, query, page, country, device, search_appearance,
                             clicks, impressions, position)
       SELECT $1, $2, $3::date - d,
              'keyword phrase ' || ((i % $6) + d * 53) % $7,
              'https://www.bench.example/page-' || (((i % $6) + d * 53) % $7) % ($7 / 10 + 1) || '/',
              (ARRAY['usa', 'gbr', 'can', 'aus'])[(i / $6) % 4 + 1],
              (ARRAY['desktop', 'mobile', 'tablet'])[(i / $6) % 3 + 1],
              CASE WHEN i % 20 = 0 THEN 'VIDEO' ELSE '' END,
              (i * 7 + d) % 20, 20 + (i * 13 + d * 7) % 500, 1 + ((i * 17 + d * 3) % 600) / 10.0
       FROM generate_series(0, $5::int - 1) AS d, generate_series(0, $4::int - 1) AS i`,
      [propertyId, accountId, today, perDay, GSC_DAYS, queriesPerDay, vocabulary],
    ),
  );
  const dates = Array.from({ length: GSC_DAYS }, (_, d) =>
    plainDate(addDays(new Date(`${today}T00:00:00Z`), -d)),
  );
  await timed('rebuild rollups', async () => {
    for (let i = 0; i < dates.length; i += 31)
      await gsc.rebuildRollups(propertyId, dates.slice(i, i + 31));
  });
  await timed('vacuum analyze', async () => {
    await sql.run('VACUUM ANALYZE gsc_rows');
    await sql.run('VACUUM ANALYZE gsc_daily_rollups');
    await sql.run('VACUUM ANALYZE gsc_weekly_rollups');
    await sql.run('VACUUM ANALYZE gsc_monthly_rollups');
  });
  return propertyId;
}

/** Deletes one day of a property's facts and rebuilds its rollups (undoes the ingestion run). */
async function removeGscDay(sql: BenchSql, propertyId: number, day: string, vacuum: boolean) {
  await sql.run(`DELETE FROM gsc_rows WHERE property_id = $1 AND date = $2::date`, [
    propertyId,
    day,
  ]);
  await new GscIngestionRepository(sql).rebuildRollups(propertyId, [day]);
  if (vacuum) {
    await sql.run(`VACUUM ANALYZE gsc_rows_p${day.slice(0, 4)}${day.slice(5, 7)}`);
    for (const t of ['gsc_daily_rollups', 'gsc_weekly_rollups', 'gsc_monthly_rollups'])
      await sql.run(`VACUUM ANALYZE ${t}`);
  }
}

async function benchGsc(sql: BenchSql, today: string) {
  const seeds = await ensureSeeds(
    sql,
    'gsc',
    GSC_SIZES,
    today,
    (perDay) => perDay * GSC_DAYS,
    (perDay, accountId) => seedGsc(sql, accountId, perDay, today),
  );
  const first = plainDate(addDays(new Date(`${today}T00:00:00Z`), -(GSC_DAYS - 1)));
  for (const seed of seeds) {
    const perDay = seed.size;
    const propertyId = seed.refId!;
    const key = await apiKey(seed.accountId);
    const rows = perDay * GSC_DAYS;
    console.log(
      `\nGSC: ${perDay.toLocaleString('en')} facts a day × ${GSC_DAYS} days = ${rows.toLocaleString('en')} facts`,
    );
    const base = `http://127.0.0.1:${PORT}/api/v1/gsc/queries?property_id=${propertyId}&limit=100`;
    for (const dim of ['query', 'page', 'country', 'device', 'date', 'searchAppearance']) {
      for (const [period, extra] of [
        ['28 days', ''],
        ['16 months', `&from=${first}`],
      ]) {
        const s = await sequential(`${base}&dim=${dim}${extra}`, key);
        points.push({
          group: 'gsc',
          scenario: `/gsc/queries dim=${dim}, ${period}`,
          size: perDay,
          rows,
          ...s,
        });
      }
    }
    // One day's batch through the admin endpoint: ceil(perDay / 10,000) requests of ≤ 10,000 rows.
    const day = plainDate(addDays(new Date(`${today}T00:00:00Z`), 1));
    await removeGscDay(sql, propertyId, day, false); // left over by an interrupted run
    const batch = Array.from({ length: perDay }, (_, i) => ({
      date: day,
      query: `keyword phrase ${i % Math.ceil(perDay / 3)}`,
      page: `https://www.bench.example/page-${i % 500}/`,
      country: ['usa', 'gbr', 'can'][Math.floor(i / Math.ceil(perDay / 3)) % 3],
      device: 'desktop',
      clicks: i % 20,
      impressions: 20 + (i % 500),
      position: 1 + (i % 600) / 10,
    }));
    const t0 = performance.now();
    for (let i = 0; i < batch.length; i += 10_000) {
      const res = await fetch(
        `http://127.0.0.1:${PORT}/admin/v1/gsc-properties/${propertyId}/rows`,
        {
          method: 'POST',
          headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ rows: batch.slice(i, i + 10_000) }),
        },
      );
      await res.arrayBuffer();
      if (res.status !== 200 && res.status !== 201)
        throw new Error(`ingestion: HTTP ${res.status}`);
    }
    const ms = round(performance.now() - t0);
    await timed('remove the ingested day again', () => removeGscDay(sql, propertyId, day, true));
    points.push({
      group: 'gsc',
      scenario: `ingest one day (${Math.ceil(perDay / 10_000)} request(s))`,
      size: perDay,
      rows,
      p50: ms,
      p95: ms,
      p99: ms,
    });
  }
}

// ---- Rank -----------------------------------------------------------------------------
async function seedRank(sql: BenchSql, accountId: number, keywords: number, today: string) {
  await sql.run(`DELETE FROM rank_projects WHERE account_id = $1`, [accountId]);
  await sql.run(
    `INSERT INTO rank_projects (account_id, domain, name)
     SELECT $1, 'project-' || p || '.example', 'Project ' || p FROM generate_series(1, $2) p`,
    [accountId, RANK_PROJECTS],
  );
  await sql.run(
    `INSERT INTO tracked_keywords (account_id, project_id, keyword, country, language, device, difficulty, search_volume, cpc)
     SELECT $1, p.id, 'tracked keyword ' || n, 'US', 'en', 'desktop', n % 100, 10 * n, 1.25
     FROM generate_series(0, $2::int - 1) n
     JOIN (SELECT id, row_number() OVER (ORDER BY id) - 1 AS i FROM rank_projects WHERE account_id = $1) p
       ON p.i = n % $3`,
    [accountId, keywords, RANK_PROJECTS],
  );
  await timed(`insert ${(keywords * 365).toLocaleString('en')} checks`, () =>
    sql.run(
      `INSERT INTO rank_checks (keyword_id, account_id, check_date, position, landing_page, gsc_clicks,
                                gsc_impressions, gsc_ctr, local_pack, featured_snippet)
       SELECT k.id, k.account_id, $2::date - d,
              CASE WHEN (k.id + d) % 17 = 0 THEN NULL ELSE 1 + (k.id * 7 + d) % 100 END,
              'https://project.example/' || k.id, (k.id + d) % 50, 100 + d, 2.5, d % 9 = 0, d % 11 = 0
       FROM tracked_keywords k, generate_series(0, 364) d
       WHERE k.account_id = $1
       ORDER BY k.id, d DESC`,
      [accountId, today],
    ),
  );
  // The stored latest check, as storeChecks keeps it (same statement as the migration's backfill).
  await sql.run(
    `UPDATE tracked_keywords k SET
       latest_check_date = l.check_date, latest_position = l.position, previous_position = l.previous_position,
       latest_landing_page = l.landing_page, latest_gsc_clicks = l.gsc_clicks,
       latest_gsc_impressions = l.gsc_impressions, latest_gsc_ctr = l.gsc_ctr,
       latest_local_pack = l.local_pack, latest_featured_snippet = l.featured_snippet,
       latest_ai_overview = l.ai_overview
     FROM (SELECT c.*, lead(c.position) OVER w AS previous_position, row_number() OVER w AS n
           FROM rank_checks c WHERE c.account_id = $1
           WINDOW w AS (PARTITION BY c.keyword_id ORDER BY c.check_date DESC)) l
     WHERE l.keyword_id = k.id AND l.n = 1`,
    [accountId],
  );
  await sql.run('VACUUM ANALYZE tracked_keywords');
  await sql.run('VACUUM ANALYZE rank_checks');
}

/** The read before migration 1764500000000 (two LATERAL lookups a keyword), for comparison. */
const OLD_KEYWORDS_SQL = `
  SELECT k.id, k.keyword, p.id AS project_id, to_char(c1.check_date, 'YYYY-MM-DD') AS last_checked,
         c1.position, c2.position AS previous_position, c1.landing_page, c1.gsc_clicks, c1.local_pack
  FROM tracked_keywords k
  JOIN rank_projects p ON p.id = k.project_id AND p.account_id = k.account_id
  LEFT JOIN LATERAL (SELECT * FROM rank_checks c WHERE c.keyword_id = k.id AND c.check_date <= $2::date
                     ORDER BY c.check_date DESC LIMIT 1) c1 ON true
  LEFT JOIN LATERAL (SELECT c.position FROM rank_checks c WHERE c.keyword_id = k.id AND c.check_date < c1.check_date
                     ORDER BY c.check_date DESC LIMIT 1) c2 ON true
  WHERE k.account_id = $1 ORDER BY k.project_id, k.id LIMIT 500`;

async function sqlTime(sql: BenchSql, text: string, params: unknown[]): Promise<number> {
  return timeOf(() => sql.rows(text, params));
}

async function timeOf(work: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 25; i++) {
    const t0 = performance.now();
    await work();
    if (i >= 5) times.push(performance.now() - t0);
  }
  return stats(times).p50;
}

async function benchRank(sql: BenchSql, today: string, bareRps: number) {
  const seeds = await ensureSeeds(
    sql,
    'rank',
    RANK_SIZES,
    today,
    (keywords) => keywords * 365,
    async (keywords, accountId) => {
      await seedRank(sql, accountId, keywords, today);
      return null;
    },
  );
  // Re-used seeds may carry dead rows from a migration's rewrite (this machine runs without
  // autovacuum): the keyword page reads the heap.
  await sql.run('VACUUM ANALYZE tracked_keywords');
  await sql.run('VACUUM ANALYZE rank_projects');
  for (const seed of seeds) {
    const keywords = seed.size;
    const accountId = seed.accountId;
    const key = await apiKey(accountId);
    const rows = keywords * 365;
    console.log(
      `\nRank: ${keywords.toLocaleString('en')} keywords × 365 checks = ${rows.toLocaleString('en')} checks`,
    );
    const project = (await sql.one<{ id: number }>(
      `SELECT min(id) AS id FROM rank_projects WHERE account_id = $1`,
      [accountId],
    ))!.id;
    const keyword = (await sql.one<{ id: number }>(
      `SELECT min(id) AS id FROM tracked_keywords WHERE account_id = $1`,
      [accountId],
    ))!.id;
    const api = `http://127.0.0.1:${PORT}/api/v1`;
    const scenarios: Array<[string, string, boolean]> = [
      ['/rank/keywords limit=100', `${api}/rank/keywords?limit=100`, true],
      ['/rank/keywords limit=500', `${api}/rank/keywords?limit=500`, true],
      [
        '/rank/keywords limit=100 project_id',
        `${api}/rank/keywords?limit=100&project_id=${project}`,
        false,
      ],
      [
        '/rank/keywords limit=500 project_id',
        `${api}/rank/keywords?limit=500&project_id=${project}`,
        false,
      ],
      ['/rank/history days=30', `${api}/rank/history?keyword_id=${keyword}&days=30`, true],
      ['/rank/history days=365', `${api}/rank/history?keyword_id=${keyword}&days=365`, true],
    ];
    // Warm the API (V8) and the cache of the first size measured, as the later sizes are.
    if (seed === seeds[0])
      await load('warm-up', scenarios[0][1], { Authorization: `Bearer ${key}` }, 3, CONNECTIONS, 0);
    for (const [name, url, loaded] of scenarios) {
      const s = await sequential(url, key);
      let rps: number | undefined;
      if (loaded) {
        rps = (
          await loadWithCpu(`${name} (${keywords} kw)`, url, { Authorization: `Bearer ${key}` })
        ).rps;
      }
      points.push({ group: 'rank', scenario: name, size: keywords, rows, ...s, rps });
    }
    const oldMs = await sqlTime(sql, OLD_KEYWORDS_SQL, [accountId, today]);
    points.push({
      group: 'rank-sql',
      scenario: 'SQL only, limit 500: two LATERAL lookups (before)',
      size: keywords,
      rows,
      p50: round(oldMs),
      p95: NaN,
      p99: NaN,
    });
    const repo = new RankRepository(
      sql,
      new ReadSql(sql, { databaseRead: null }),
      new RankChecksRepository(sql),
    );
    const newMs = await timeOf(() => repo.keywordPage(accountId, null, 500, 0, today, null));
    points.push({
      group: 'rank-sql',
      scenario: 'SQL only, limit 500: stored latest (after)',
      size: keywords,
      rows,
      p50: round(newMs),
      p95: NaN,
      p99: NaN,
    });
  }
  console.log(`\nBare NestJS route at ${CONNECTIONS} connections: ${bareRps} req/s`);
}

// ---- AI visibility --------------------------------------------------------------------
async function seedAi(sql: BenchSql, accountId: number, projects: number, today: string) {
  await sql.run(`DELETE FROM ai_visibility_projects WHERE account_id = $1`, [accountId]);
  await sql.run(
    `INSERT INTO ai_visibility_projects (account_id, domain, brand_name, target_country, target_language, ai_engine,
                                         tracking_frequency, visibility_score, previous_visibility_score)
     SELECT $1, 'brand-' || p || '.example', 'Brand ' || p, 'US', 'en', 'chatgpt', 'daily', 40 + p % 50, 38 + p % 50
     FROM generate_series(1, $2) p`,
    [accountId, projects],
  );
  await timed(`insert ${(projects * 365).toLocaleString('en')} snapshots`, () =>
    sql.run(
      `INSERT INTO ai_visibility_snapshots (account_id, project_id, snapshot_date, visibility_score, geo_score, mention_rate,
         avg_position, sentiment_avg, citation_rate, competition_score, prompts_evaluated, brand_mentions)
       SELECT $1, p.id, $2::date - d, 40 + (p.id + d) % 50, 50, 30, 3.2, 10, 20, 60, 100, (p.id + d) % 40
       FROM ai_visibility_projects p, generate_series(0, 364) d WHERE p.account_id = $1`,
      [accountId, today],
    ),
  );
  await timed(`insert ${(projects * 365 * 20).toLocaleString('en')} competitors`, () =>
    sql.run(
      `INSERT INTO ai_visibility_competitors (snapshot_id, account_id, competitor_name, competitor_domain, mention_count)
       SELECT s.id, s.account_id, 'Competitor ' || c, 'competitor-' || c || '.example', (s.id * 7 + c * 13) % 60
       FROM ai_visibility_snapshots s, generate_series(1, 20) c WHERE s.account_id = $1`,
      [accountId],
    ),
  );
  await sql.run('VACUUM ANALYZE ai_visibility_snapshots');
  await sql.run('VACUUM ANALYZE ai_visibility_competitors');
}

async function benchAi(sql: BenchSql, today: string) {
  const seeds = await ensureSeeds(
    sql,
    'ai',
    AI_SIZES,
    today,
    (projects) => projects * 365,
    async (projects, accountId) => {
      await seedAi(sql, accountId, projects, today);
      return null;
    },
  );
  for (const seed of seeds) {
    const projects = seed.size;
    const accountId = seed.accountId;
    const key = await apiKey(accountId);
    const rows = projects * 365;
    console.log(`\nAI visibility: ${projects} projects × 365 scans (× 20 competitors)`);
    const project = (await sql.one<{ id: number }>(
      `SELECT max(id) AS id FROM ai_visibility_projects WHERE account_id = $1`,
      [accountId],
    ))!.id;
    const api = `http://127.0.0.1:${PORT}/api/v1/ai-visibility`;
    for (const [name, url] of [
      ['/ai-visibility/projects', `${api}/projects`],
      ['/ai-visibility/share-of-voice', `${api}/share-of-voice?project_id=${project}`],
    ]) {
      points.push({
        group: 'ai',
        scenario: name,
        size: projects,
        rows,
        ...(await sequential(url, key)),
      });
    }
  }
}

// ---- Output ---------------------------------------------------------------------------
function printTables(bareRps: number | null, only?: string): void {
  for (const group of only ? [only] : ['gsc', 'rank', 'rank-sql', 'ai']) {
    const ps = points.filter((p) => p.group === group);
    if (!ps.length) continue;
    console.log(
      `\n| ${group} scenario | size | rows | p50 ms | p95 ms | p99 ms | req/s @${CONNECTIONS} | × bare |`,
    );
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
    for (const p of ps) {
      const ratio = p.rps && bareRps ? (p.rps / bareRps).toFixed(2) : '';
      const f = (x: number) => (Number.isNaN(x) ? '' : String(x));
      console.log(
        `| ${p.scenario} | ${p.size.toLocaleString('en')} | ${p.rows.toLocaleString('en')} | ${p.p50} | ${f(p.p95)} | ${f(p.p99)} | ${p.rps ?? ''} | ${ratio} |`,
      );
    }
  }
}

/** Latency (p50) against data size, log-log, one panel per resource. Plain SVG. */
function writeSvg(file: string): void {
  const panels = [
    ['gsc', 'GSC /gsc/queries (facts)'],
    ['rank', 'Rank (checks)'],
    ['ai', 'AI visibility (scans)'],
  ].filter(([g]) => points.some((p) => p.group === g));
  const W = 420,
    H = 320,
    M = { l: 55, r: 10, t: 30, b: 40 };
  const colors = [
    '#1f77b4',
    '#ff7f0e',
    '#2ca02c',
    '#d62728',
    '#9467bd',
    '#8c564b',
    '#e377c2',
    '#7f7f7f',
    '#bcbd22',
    '#17becf',
    '#393b79',
    '#637939',
    '#8c6d31',
  ];
  const parts: string[] = [];
  const legendH = 14;
  let maxLegend = 0;
  panels.forEach(([group, title], pi) => {
    const ps = points.filter((p) => p.group === group && p.p50 > 0);
    const scen = [...new Set(ps.map((p) => p.scenario))];
    maxLegend = Math.max(maxLegend, scen.length);
    const lx = (v: number) => Math.log10(v);
    const xs = ps.map((p) => lx(p.rows)),
      ys = ps.map((p) => lx(p.p50));
    const [x0, x1] = [Math.floor(Math.min(...xs) * 2) / 2, Math.ceil(Math.max(...xs) * 2) / 2 || 1];
    const [y0, y1] = [Math.floor(Math.min(...ys)), Math.ceil(Math.max(...ys)) || 1];
    const ox = pi * W;
    const X = (v: number) => ox + M.l + ((lx(v) - x0) / (x1 - x0 || 1)) * (W - M.l - M.r);
    const Y = (v: number) => M.t + (1 - (lx(v) - y0) / (y1 - y0 || 1)) * (H - M.t - M.b);
    parts.push(
      `<text x="${ox + W / 2}" y="18" text-anchor="middle" font-weight="bold">${title}</text>`,
    );
    parts.push(
      `<rect x="${ox + M.l}" y="${M.t}" width="${W - M.l - M.r}" height="${H - M.t - M.b}" fill="none" stroke="#999"/>`,
    );
    for (let e = y0; e <= y1; e++) {
      const y = Y(10 ** e);
      parts.push(`<line x1="${ox + M.l}" x2="${ox + W - M.r}" y1="${y}" y2="${y}" stroke="#eee"/>`);
      parts.push(`<text x="${ox + M.l - 4}" y="${y + 4}" text-anchor="end">${10 ** e} ms</text>`);
    }
    for (let e = Math.ceil(x0); e <= x1; e++) {
      const x = X(10 ** e);
      parts.push(`<line x1="${x}" x2="${x}" y1="${M.t}" y2="${H - M.b}" stroke="#eee"/>`);
      parts.push(`<text x="${x}" y="${H - M.b + 14}" text-anchor="middle">1e${e}</text>`);
    }
    parts.push(`<text x="${ox + W / 2}" y="${H - 8}" text-anchor="middle">rows (log)</text>`);
    scen.forEach((s, i) => {
      const line = ps.filter((p) => p.scenario === s).sort((a, b) => a.rows - b.rows);
      const c = colors[i % colors.length];
      parts.push(
        `<polyline fill="none" stroke="${c}" stroke-width="1.5" points="${line.map((p) => `${X(p.rows).toFixed(1)},${Y(p.p50).toFixed(1)}`).join(' ')}"/>`,
      );
      for (const p of line)
        parts.push(
          `<circle cx="${X(p.rows).toFixed(1)}" cy="${Y(p.p50).toFixed(1)}" r="2.5" fill="${c}"/>`,
        );
      parts.push(
        `<rect x="${ox + 10}" y="${H + 6 + i * legendH}" width="10" height="3" fill="${c}"/><text x="${ox + 24}" y="${H + 10 + i * legendH}">${s.replace(/&/g, '&amp;')}</text>`,
      );
    });
  });
  const width = Math.max(1, panels.length) * W;
  const height = H + 16 + maxLegend * legendH;
  writeFileSync(
    file,
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="10">\n` +
      `<rect width="100%" height="100%" fill="white"/>\n${parts.join('\n')}\n` +
      `<text x="4" y="${height - 4}" fill="#666">p50 latency (sequential, one keep-alive connection) against data size; npm run bench:your-data (${FULL ? 'full' : 'small'} sizes)</text>\n</svg>\n`,
  );
}

async function main(): Promise<void> {
  const started = Date.now();
  const config = loadConfig();
  const url = benchDatabaseUrl(config.databaseUrl);
  await ensureDatabase(url);
  await runMigrations(url);
  const { sql, close } = await openBenchSql(url);
  await ensureSeedTable(sql);
  const today = plainDate(new Date());
  const dist = path.resolve(__dirname, '..');
  const env = {
    ...process.env,
    DATABASE_URL: url,
    PORT: String(PORT),
    ADMIN_TOKEN,
    REDIS_PREFIX: `seobench:yourdata:${Date.now()}`,
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    DB_POOL_SIZE: process.env.DB_POOL_SIZE ?? '10',
  };
  const api = await startProcess(
    path.join(dist, 'apps/api/src/main.js'),
    env,
    `http://127.0.0.1:${PORT}/health/live`,
    ['--max-semi-space-size=64'],
  );
  apiPid = api.pid ?? 0;
  let bareRps: number | null = null;
  try {
    const accountId = await benchAccount(sql);
    const key = await apiKey(accountId);
    if (PARTS.has('rank')) {
      const bare = await startProcess(
        path.join(dist, 'bench/bare-app.js'),
        { ...process.env, PORT: String(BARE_PORT) },
        `http://127.0.0.1:${BARE_PORT}/bare`,
      );
      try {
        bareRps = (
          await load('bare', `http://127.0.0.1:${BARE_PORT}/bare`, {}, SECONDS, CONNECTIONS, 1)
        ).requestsPerSec;
      } finally {
        await stopProcess(bare);
      }
      // The pipeline's floor: GET /usage (auth, limits, meter, envelope; no your-data read).
      const usage = await loadWithCpu('GET /usage', `http://127.0.0.1:${PORT}/api/v1/usage`, {
        Authorization: `Bearer ${key}`,
      });
      console.log(
        `Bare route ${bareRps} req/s; full pipeline GET /usage ${usage.rps} req/s (${(usage.rps / bareRps).toFixed(2)} × bare)`,
      );
      await benchRank(sql, today, bareRps);
    }
    if (PARTS.has('rank')) {
      printTables(bareRps); // each part's table as soon as it is done
      console.log(
        `\n| CPU ms per request at ${CONNECTIONS} connections | req/s | API (Node) | PostgreSQL | load generator |`,
      );
      console.log('|---|---:|---:|---:|---:|');
      for (const c of cpuRows)
        console.log(`| ${c.name} | ${c.rps} | ${c.node} | ${c.pg} | ${c.loadgen} |`);
    }
    if (PARTS.has('ai')) {
      await benchAi(sql, today);
      printTables(bareRps, 'ai');
    }
    if (PARTS.has('gsc')) await benchGsc(sql, today);
  } finally {
    await stopProcess(api);
    await close();
  }
  printTables(bareRps);
  const svg = path.resolve(
    dist,
    '..',
    'docs',
    process.env.YOUR_DATA_SVG ?? 'your-data-scaling.svg',
  );
  writeSvg(svg);
  console.log(
    `\nPlot: ${svg}\nTotal run time (seeding included): ${((Date.now() - started) / 60_000).toFixed(1)} min`,
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
