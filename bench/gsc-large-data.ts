import { DataSource } from 'typeorm';
import { addDays, plainDate, recordTimestamp } from '@app/core';
import { Sql, dataSourceOptions, monthStart } from '@app/database';
import { GscIngestionRepository } from '@app/database';

/** The benchmark account and property (found by name / URI, so re-seeding replaces them). */
export const BENCH_ACCOUNT_NAME = 'GSC benchmark (Agency)';
export const BENCH_PROPERTY_URI = 'sc-domain:bench-large.example';
export const BENCH_DAYS = 90;
export const BENCH_ROWS = 1_000_000;

export interface LargeDataSet {
  accountId: number;
  propertyId: number;
  rows: number;
  seconds: number;
}

/** A connection to DATABASE_URL for the bench scripts: the `Sql` helper and how to close it. */
export async function openBenchSql(url: string): Promise<{ sql: Sql; close: () => Promise<void> }> {
  const dataSource = await new DataSource(dataSourceOptions(url, 2)).initialize();
  return { sql: new Sql(dataSource), close: () => dataSource.destroy() };
}

/** Finds the benchmark property, or null when it has not been seeded. */
export async function findLargeDataSet(
  sql: Sql,
): Promise<{ accountId: number; propertyId: number; rows: number } | null> {
  const found = await sql.one<{ account_id: number; property_id: number; rows: number }>(
    `SELECT a.id AS account_id, p.id AS property_id,
            (SELECT count(*)::int FROM gsc_rows g WHERE g.property_id = p.id) AS rows
     FROM accounts a JOIN gsc_properties p ON p.account_id = a.id AND p.property_uri = $2
     WHERE a.name = $1 ORDER BY a.id LIMIT 1`,
    [BENCH_ACCOUNT_NAME, BENCH_PROPERTY_URI],
  );
  return found
    ? { accountId: found.account_id, propertyId: found.property_id, rows: found.rows }
    : null;
}

/**
 * Seeds 1,000,000 daily facts (90 days ending today, ~11,100 per day) in SQL with
 * generate_series — no HTTP — then rebuilds the daily and monthly rollups in the same
 * transaction with the ingestion repository (`GscIngestionRepository.rebuildRollups`), and
 * VACUUM ANALYZEs. Shape per day: ~3,700 distinct queries (rotating through 8,000 over
 * the period), each on up to 4 country × device × page slices, 600 pages, 4 countries,
 * 3 devices, 1 row in 20 with a search appearance.
 */
export async function seedLargeDataSet(sql: Sql, today: string): Promise<LargeDataSet> {
  const started = Date.now();
  const gsc = new GscIngestionRepository(sql);
  const account = await sql.one<{ id: number }>(
    `WITH found AS (SELECT id FROM accounts WHERE name = $1 ORDER BY id LIMIT 1),
          made AS (INSERT INTO accounts (name, plan, overrides)
                   SELECT $1, 'agency', '{"api_calls_per_month":"unlimited","requests_per_minute":1000000000}'::jsonb
                   WHERE NOT EXISTS (SELECT 1 FROM found) RETURNING id)
     SELECT id FROM found UNION ALL SELECT id FROM made`,
    [BENCH_ACCOUNT_NAME],
  );
  const accountId = account!.id;
  const now = new Date();
  const property = await gsc.upsertProperty(
    accountId,
    {
      property_uri: BENCH_PROPERTY_URI,
      display_name: 'Benchmark (1M rows)',
      google_email: 'bench@bench-large.example',
      is_sandbox: true,
      last_synced_at: recordTimestamp(now),
      last_sync_status: 'success',
    },
    now,
  );
  const propertyId = property!.row.id;
  const months: string[] = [];
  for (
    let m = monthStart(plainDate(addDays(new Date(`${today}T00:00:00Z`), -BENCH_DAYS)));
    m <= today;
    m = monthStart(m, 1)
  )
    months.push(m);
  await gsc.partitions.ensureMonths(months);
  await sql.transaction(async (tx) => {
    await tx.run(`DELETE FROM gsc_monthly_rollups WHERE property_id = $1`, [propertyId]);
    await tx.run(`DELETE FROM gsc_weekly_rollups WHERE property_id = $1`, [propertyId]);
    await tx.run(`DELETE FROM gsc_daily_rollups WHERE property_id = $1`, [propertyId]);
    await tx.run(`DELETE FROM gsc_rows WHERE property_id = $1`, [propertyId]);
    await tx.run(
      `INSERT INTO gsc_rows (property_id, account_id, date, query, page, country, device, search_appearance,
                             clicks, impressions, position)
       SELECT $1, $2, $3::date - d,
              'keyword phrase ' || ((i % 3700) + d * 53) % 8000,
              'https://www.bench-large.example/page-' || (((i % 3700) + d * 53) % 8000) % 600 || '/',
              (ARRAY['usa', 'gbr', 'can', 'aus'])[(i / 3700) % 4 + 1],
              (ARRAY['desktop', 'mobile', 'tablet'])[(i / 3700) % 3 + 1],
              CASE WHEN i % 20 = 0 THEN 'VIDEO' ELSE '' END,
              (i * 7 + d) % 20,
              20 + (i * 13 + d * 7) % 500,
              1 + ((i * 17 + d * 3) % 600) / 10.0
       FROM generate_series(0, $4::int - 1) AS n,
            LATERAL (SELECT n % $5 AS d, n / $5 AS i) AS x
       ORDER BY 3, 4, 5, 6, 7, 8 -- primary-key order: the key index is appended to, not split`,
      [propertyId, accountId, today, BENCH_ROWS, BENCH_DAYS],
    );
    const dates = await tx.one<{ dates: string[] }>(
      `SELECT array_agg(DISTINCT to_char(date, 'YYYY-MM-DD')) AS dates FROM gsc_rows WHERE property_id = $1`,
      [propertyId],
    );
    await gsc.rebuildRollups(propertyId, dates!.dates, tx);
  });
  await sql.run('VACUUM ANALYZE gsc_rows');
  await sql.run('VACUUM ANALYZE gsc_daily_rollups');
  await sql.run('VACUUM ANALYZE gsc_weekly_rollups');
  await sql.run('VACUUM ANALYZE gsc_monthly_rollups');
  const count = await sql.one<{ n: number }>(
    `SELECT count(*)::int AS n FROM gsc_rows WHERE property_id = $1`,
    [propertyId],
  );
  return { accountId, propertyId, rows: count!.n, seconds: (Date.now() - started) / 1000 };
}
