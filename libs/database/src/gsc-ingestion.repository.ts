import { Injectable } from '@nestjs/common';
import { parseRecordTimestamp } from '@app/core';
import { GscPropertyEntity } from './entities';
import { GscPartitionRepository } from './gsc-partitions.repository';
import { Sql, SqlScope, SqlTx } from './sql';
import { upserted } from './upserted';

/** A property as the admin ingestion posts it (CreateGscPropertyDto in the API). */
export interface GscPropertyInput {
  property_uri: string;
  display_name: string;
  status?: string;
  google_email: string;
  is_sandbox?: boolean;
  last_synced_at?: string | null;
  last_sync_status?: string | null;
}

/**
 * One daily fact (GscRowDto in the API; the sync maps Google's rows to it): country
 * lower-case as Search Console reports it, device lower-case, search_appearance '' or omitted
 * for none.
 */
export interface GscFactInput {
  date: string;
  query: string;
  page: string;
  country: string;
  device: string;
  search_appearance?: string;
  clicks: number;
  impressions: number;
  position: number;
}

const DIM_CASE = `CASE WHEN GROUPING(query) = 0 THEN 'query'
                WHEN GROUPING(page) = 0 THEN 'page'
                WHEN GROUPING(country) = 0 THEN 'country'
                WHEN GROUPING(device) = 0 THEN 'device'
                WHEN GROUPING(search_appearance) = 0 THEN 'searchAppearance'
                ELSE 'date' END`;
const KEY_EXPR = `COALESCE(query, page, country, device, search_appearance, to_char(date, 'YYYY-MM-DD'))`;
/** First day of the 7-day month block of a date (1st, 8th, 15th, 22nd or 29th); gsc_weekly_rollups. */
const WEEK_OF = (date: string) =>
  `(date_trunc('month', ${date})::date + least((extract(day FROM ${date})::int - 1) / 7, 4) * 7)`;

/**
 * Rebuilds the daily per-dimension rollups of the given dates from the raw facts (one
 * statement, GROUPING SETS). Used by bulk loads (the large-data seed script) and to repair.
 * `$1` = property id, `$2` = date[] of the dates to rebuild.
 */
const REBUILD_ROLLUPS_SQL = `
  INSERT INTO gsc_daily_rollups (property_id, account_id, dim, date, key, clicks, impressions, position_weighted)
  SELECT property_id, account_id, dim, date, key, clicks, impressions, position_weighted FROM (
    SELECT property_id, account_id, date,
           ${DIM_CASE} AS dim,
           ${KEY_EXPR} AS key,
           sum(clicks) AS clicks, sum(impressions) AS impressions,
           sum(position * impressions) AS position_weighted
    FROM gsc_rows
    WHERE property_id = $1 AND date = ANY($2::date[])
    GROUP BY property_id, account_id, date,
             GROUPING SETS ((query), (page), (country), (device), (search_appearance), ())
  ) g
  WHERE NOT (dim = 'searchAppearance' AND key = '')`;

/** The facts of a batch as a relation: $3..$11 are the columns as arrays (`factColumns`). */
const FACT_COLUMNS = `unnest($3::date[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
                         $9::int[], $10::int[], $11::float8[])
      AS u(date, query, page, country, device, search_appearance, clicks, impressions, position)`;

/** Inserts a batch of facts ($1 property, $2 account, $3..$11 `factColumns`), rollups untouched. */
const INSERT_ROWS_SQL = `
  INSERT INTO gsc_rows (property_id, account_id, date, query, page, country, device, search_appearance,
                        clicks, impressions, position)
  SELECT $1, $2, u.* FROM ${FACT_COLUMNS}`;

/**
 * Upserts a batch of facts and applies their deltas to the rollups, in one statement. All
 * parts of a WITH statement read the same snapshot, so `d` sees the values stored before
 * this batch. Cost is proportional to the batch, not to the data already stored.
 * $1 property, $2 account, $3..$11 the columns as arrays, $12..$13 the first and last date
 * of the batch: constants the planner prunes the partitions with and estimates the stored
 * rows from (without them it costs the lookup over every month of the property and, for a
 * large property, picked a hash join over all of its facts: 5.3 s instead of ~1 s for
 * 10,000 rows; docs/performance.md "Your-data at agency scale").
 */
const UPSERT_ROWS_WITH_DELTAS_SQL = `
  WITH input AS (
    SELECT * FROM ${FACT_COLUMNS}
  ), d AS (
    SELECT i.date, i.query, i.page, i.country, i.device, i.search_appearance,
           i.clicks - COALESCE(g.clicks, 0) AS dc,
           i.impressions - COALESCE(g.impressions, 0) AS di,
           i.position * i.impressions - COALESCE(g.position * g.impressions, 0) AS dp
    FROM input i
    LEFT JOIN gsc_rows g
      ON g.property_id = $1 AND g.date BETWEEN $12::date AND $13::date
     AND g.date = i.date AND g.query = i.query AND g.page = i.page
     AND g.country = i.country AND g.device = i.device AND g.search_appearance = i.search_appearance
  ), up AS (
    INSERT INTO gsc_rows (property_id, account_id, date, query, page, country, device, search_appearance,
                          clicks, impressions, position)
    SELECT $1, $2, i.* FROM input i
    ON CONFLICT (property_id, date, query, page, country, device, search_appearance) DO UPDATE SET
      clicks = EXCLUDED.clicks, impressions = EXCLUDED.impressions, position = EXCLUDED.position
    RETURNING 1
  ), g AS (
    SELECT date, ${DIM_CASE} AS dim, ${KEY_EXPR} AS key, sum(dc) AS dc, sum(di) AS di, sum(dp) AS dp
    FROM d
    GROUP BY date, GROUPING SETS ((query), (page), (country), (device), (search_appearance), ())
  ), daily AS (
    INSERT INTO gsc_daily_rollups (property_id, account_id, dim, date, key, clicks, impressions, position_weighted)
    SELECT $1, $2, dim, date, key, dc, di, dp FROM g WHERE NOT (dim = 'searchAppearance' AND key = '')
    ON CONFLICT (property_id, dim, date, key) DO UPDATE SET
      clicks = gsc_daily_rollups.clicks + EXCLUDED.clicks,
      impressions = gsc_daily_rollups.impressions + EXCLUDED.impressions,
      position_weighted = gsc_daily_rollups.position_weighted + EXCLUDED.position_weighted
    RETURNING 1
  ), weekly AS (
    INSERT INTO gsc_weekly_rollups (property_id, account_id, dim, week, key, clicks, impressions, position_weighted)
    SELECT $1, $2, dim, ${WEEK_OF('date')}, key, sum(dc), sum(di), sum(dp)
    FROM g WHERE dim <> 'date' AND NOT (dim = 'searchAppearance' AND key = '')
    GROUP BY dim, ${WEEK_OF('date')}, key
    ON CONFLICT (property_id, dim, week, key) DO UPDATE SET
      clicks = gsc_weekly_rollups.clicks + EXCLUDED.clicks,
      impressions = gsc_weekly_rollups.impressions + EXCLUDED.impressions,
      position_weighted = gsc_weekly_rollups.position_weighted + EXCLUDED.position_weighted
    RETURNING 1
  )
  INSERT INTO gsc_monthly_rollups (property_id, account_id, dim, month, key, clicks, impressions, position_weighted)
  SELECT $1, $2, dim, date_trunc('month', date)::date, key, sum(dc), sum(di), sum(dp)
  FROM g WHERE dim <> 'date' AND NOT (dim = 'searchAppearance' AND key = '')
  GROUP BY dim, date_trunc('month', date), key
  ON CONFLICT (property_id, dim, month, key) DO UPDATE SET
    clicks = gsc_monthly_rollups.clicks + EXCLUDED.clicks,
    impressions = gsc_monthly_rollups.impressions + EXCLUDED.impressions,
    position_weighted = gsc_monthly_rollups.position_weighted + EXCLUDED.position_weighted`;

/**
 * Rebuilds the calendar-month rollups (every dim but date) of the months `$2` (month
 * starts) from the daily rollups. `$1` = property id.
 */
const REBUILD_MONTHLY_ROLLUPS_SQL = `
  INSERT INTO gsc_monthly_rollups (property_id, account_id, dim, month, key, clicks, impressions, position_weighted)
  SELECT r.property_id, r.account_id, r.dim, m.month, r.key,
         sum(r.clicks), sum(r.impressions), sum(r.position_weighted)
  FROM unnest($2::date[]) AS m(month)
  JOIN gsc_daily_rollups r
    ON r.property_id = $1 AND r.date >= m.month AND r.date < (m.month + interval '1 month')::date
  WHERE r.dim <> 'date'
  GROUP BY r.property_id, r.account_id, r.dim, m.month, r.key`;

/**
 * Rebuilds the calendar-month rollups of the months `$2` from their 7-day blocks' weekly
 * rollups (blocks never cross a month, so a month is exactly the sum of its blocks): about a
 * fifth of the rows of a rebuild from the daily rollups. For a caller whose weekly rollups of
 * those months are exact (a day replaced: its block was just rebuilt, the others maintained).
 */
const REBUILD_MONTHLY_FROM_WEEKLY_SQL = `
  INSERT INTO gsc_monthly_rollups (property_id, account_id, dim, month, key, clicks, impressions, position_weighted)
  SELECT r.property_id, r.account_id, r.dim, m.month, r.key,
         sum(r.clicks), sum(r.impressions), sum(r.position_weighted)
  FROM unnest($2::date[]) AS m(month)
  JOIN gsc_weekly_rollups r
    ON r.property_id = $1 AND r.week >= m.month AND r.week < (m.month + interval '1 month')::date
  GROUP BY r.property_id, r.account_id, r.dim, m.month, r.key`;

/**
 * Rebuilds the weekly (7-day month block) rollups of the blocks `$2` (block starts) from the
 * daily rollups. `$1` = property id.
 */
const REBUILD_WEEKLY_ROLLUPS_SQL = `
  INSERT INTO gsc_weekly_rollups (property_id, account_id, dim, week, key, clicks, impressions, position_weighted)
  SELECT r.property_id, r.account_id, r.dim, w.week, r.key,
         sum(r.clicks), sum(r.impressions), sum(r.position_weighted)
  FROM unnest($2::date[]) AS w(week)
  JOIN gsc_daily_rollups r
    ON r.property_id = $1 AND r.date >= w.week
   AND r.date < least(w.week + 7, (date_trunc('month', w.week) + interval '1 month')::date)
  WHERE r.dim <> 'date'
  GROUP BY r.property_id, r.account_id, r.dim, w.week, r.key`;

/** Block starts (YYYY-MM-DD, day 1/8/15/22/29) of the given dates, without duplicates. */
function weeksOf(dates: string[]): string[] {
  return [
    ...new Set(
      dates.map((d) => {
        const day = Number(d.slice(8, 10));
        return `${d.slice(0, 8)}${String(1 + Math.min(Math.floor((day - 1) / 7), 4) * 7).padStart(2, '0')}`;
      }),
    ),
  ];
}

/** Month starts (YYYY-MM-01) of the given dates, without duplicates. */
function monthsOf(dates: string[]): string[] {
  return [...new Set(dates.map((d) => `${d.slice(0, 7)}-01`))];
}

/** The facts without duplicate keys: the last entry of a key wins. */
function distinctFacts(rows: GscFactInput[]): GscFactInput[] {
  const byKey = new Map<string, GscFactInput>();
  for (const r of rows) {
    const appearance = r.search_appearance ?? '';
    byKey.set(JSON.stringify([r.date, r.query, r.page, r.country, r.device, appearance]), r);
  }
  return [...byKey.values()];
}

/** The parameters $3..$11 of FACT_COLUMNS. */
function factColumns(list: GscFactInput[]): unknown[] {
  return [
    list.map((r) => r.date),
    list.map((r) => r.query),
    list.map((r) => r.page),
    list.map((r) => r.country),
    list.map((r) => r.device),
    list.map((r) => r.search_appearance ?? ''),
    list.map((r) => r.clicks),
    list.map((r) => r.impressions),
    list.map((r) => r.position),
  ];
}

/** The columns of a GscPropertyRow, as a RETURNING list. */
const PROPERTY_ROW = `id, property_uri AS "propertyUri", display_name AS "displayName", status,
  google_email AS "googleEmail", is_sandbox AS "isSandbox", last_synced_at AS "lastSyncedAt",
  last_sync_status AS "lastSyncStatus"`;

/** What a property upsert answers. */
export type GscPropertyRow = Pick<
  GscPropertyEntity,
  | 'id'
  | 'propertyUri'
  | 'displayName'
  | 'status'
  | 'googleEmail'
  | 'isSandbox'
  | 'lastSyncedAt'
  | 'lastSyncStatus'
>;

/**
 * The one write path of GSC properties, daily fact rows and their rollups, shared by the
 * admin ingestion (API), bulk loads (bench, demo seed) and the worker's Search Console sync.
 */
@Injectable()
export class GscIngestionRepository {
  /** The monthly partitions of gsc_rows a batch writes into (created when missing). */
  readonly partitions: GscPartitionRepository;

  constructor(private readonly sql: Sql) {
    this.partitions = new GscPartitionRepository(sql);
  }

  /** Creates the property, or updates the account's property with the same URI. null: no such account. */
  async upsertProperty(accountId: number, p: GscPropertyInput, now: Date) {
    return upserted(
      await this.sql.one<GscPropertyRow & { created: boolean }>(
        `INSERT INTO gsc_properties (account_id, property_uri, display_name, status, google_email, is_sandbox,
           last_synced_at, last_sync_status, created_at, updated_at)
         SELECT a.id, $2, $3, $4, $5, $6, $7, $8, $9, $9 FROM accounts a WHERE a.id = $1
         ON CONFLICT ON CONSTRAINT gsc_properties_natural_key DO UPDATE SET
           display_name = EXCLUDED.display_name, status = EXCLUDED.status, google_email = EXCLUDED.google_email,
           is_sandbox = EXCLUDED.is_sandbox, last_synced_at = EXCLUDED.last_synced_at,
           last_sync_status = EXCLUDED.last_sync_status, updated_at = EXCLUDED.updated_at
         RETURNING ${PROPERTY_ROW}, (xmax = 0) AS created`,
        [
          accountId,
          p.property_uri,
          p.display_name,
          p.status ?? 'active',
          p.google_email,
          p.is_sandbox ?? false,
          p.last_synced_at ? parseRecordTimestamp(p.last_synced_at) : null,
          p.last_sync_status ?? null,
          now,
        ],
      ),
    );
  }

  /**
   * Adds a property the worker syncs (docs/gsc-sync.md): through a Google connection, or a
   * sandbox property (`connectionId` null, `isSandbox`) synced from generated facts. It is due
   * at once (`next_sync_at` = now, `last_sync_status` pending; the backfill is planned by its
   * first sync). Adding a property that exists (same account and URI) keeps its data and its
   * sync progress, takes the new connection and resumes it (status active). null: no such
   * account. The account routes and the demo seed call this; the plan limit is theirs.
   */
  async addSyncedProperty(
    accountId: number,
    p: {
      propertyUri: string;
      displayName: string;
      googleEmail: string;
      connectionId: number | null;
      permissionLevel: string | null;
      isSandbox: boolean;
    },
    now: Date,
  ) {
    return upserted(
      await this.sql.one<GscPropertyRow & { created: boolean }>(
        `INSERT INTO gsc_properties (account_id, property_uri, display_name, status, google_email, is_sandbox,
           last_sync_status, connection_id, permission_level, next_sync_at, created_at, updated_at)
         SELECT a.id, $2, $3, 'active', $4, $5, 'pending', $6, $7, $8, $8, $8 FROM accounts a WHERE a.id = $1
         ON CONFLICT ON CONSTRAINT gsc_properties_natural_key DO UPDATE SET
           display_name = EXCLUDED.display_name, status = 'active', google_email = EXCLUDED.google_email,
           is_sandbox = EXCLUDED.is_sandbox, connection_id = EXCLUDED.connection_id,
           permission_level = EXCLUDED.permission_level,
           last_sync_status = CASE WHEN gsc_properties.next_sync_at IS NULL
                                     OR gsc_properties.status <> 'active'
                                   THEN 'pending' ELSE gsc_properties.last_sync_status END,
           next_sync_at = CASE WHEN gsc_properties.status <> 'active' THEN EXCLUDED.next_sync_at
                               ELSE COALESCE(gsc_properties.next_sync_at, EXCLUDED.next_sync_at) END,
           updated_at = EXCLUDED.updated_at
         RETURNING ${PROPERTY_ROW}, (xmax = 0) AS created`,
        [
          accountId,
          p.propertyUri,
          p.displayName,
          p.googleEmail,
          p.isSandbox,
          p.connectionId,
          p.permissionLevel,
          now,
        ],
      ),
    );
  }

  /**
   * A connection Google refused (`reauth_required`) was connected again with a new refresh
   * token: the caller has stored the token and set the connection `active`; its properties
   * that were waiting for it are active and due again (`pending`), their data and backfill
   * progress kept. Returns how many properties resumed.
   */
  async resumeConnectionProperties(connectionId: number, now: Date): Promise<number> {
    const rows = await this.sql.rows<{ id: number }>(
      `UPDATE gsc_properties SET status = 'active', last_sync_status = 'pending', last_error = NULL,
         next_sync_at = $2, updated_at = $2
       WHERE connection_id = $1 AND status = 'reauth_required'
       RETURNING id`,
      [connectionId, now],
    );
    return rows.length;
  }

  /**
   * Stores a batch of daily facts in one transaction: upsert on the natural key (date ×
   * query × page × country × device × search appearance; within a batch the last entry of a
   * key wins) and add each row's change (new − stored) to the daily, weekly and monthly
   * rollups, in one statement. The property row is locked first, so batches of one property are
   * serialized and the "stored" values the deltas are computed from are exact. Returns the
   * number of rows stored, or null when the property does not exist.
   */
  async storeRows(propertyId: number, rows: GscFactInput[]): Promise<number | null> {
    const list = distinctFacts(rows);
    return this.inPartitions(
      list.map((r) => r.date),
      () => this.writeRows(propertyId, list),
    );
  }

  /**
   * Replaces one day of a property's facts as a whole, atomically (the Search Console sync,
   * docs/gsc-sync.md): under the property row's lock, the day's stored facts are deleted,
   * `rows` (all of that day; the last entry of a key wins) inserted, and the day's daily
   * rollups, its 7-day block's and its month's rebuilt from them, so the rollups equal a
   * rebuild from the facts whatever was stored before (a re-pulled day never double-counts,
   * a row Google no longer reports disappears). `alsoInTx` runs last in the same transaction
   * (the sync records its progress there). Returns the number of facts stored, or null when
   * the property does not exist.
   */
  async replaceDay(
    propertyId: number,
    day: string,
    rows: GscFactInput[],
    alsoInTx?: (tx: SqlTx) => Promise<void>,
  ): Promise<number | null> {
    const list = distinctFacts(rows);
    const stray = list.find((r) => r.date !== day);
    if (stray) throw new Error(`replaceDay(${day}) got a fact of ${stray.date}`);
    return this.inPartitions([day], () =>
      this.sql.bulkTransaction(async (tx) => {
        const accountId = await tx.lockAccountRow(GscPropertyEntity, propertyId);
        if (accountId === null) return null;
        await tx.run('SET LOCAL jit = off');
        await tx.run(`DELETE FROM gsc_rows WHERE property_id = $1 AND date = $2::date`, [
          propertyId,
          day,
        ]);
        if (list.length > 0) {
          await tx.run(INSERT_ROWS_SQL, [propertyId, accountId, ...factColumns(list)]);
        }
        // The month from its blocks' weekly rollups: the block was just rebuilt, the others
        // are maintained (docs/gsc-sync.md, "Writing a day": 3x faster than from the days).
        await this.rebuildRollups(propertyId, [day], tx, 'weekly');
        if (alsoInTx) await alsoInTx(tx);
        return list.length;
      }),
    );
  }

  /**
   * gsc_rows is partitioned by month: the months of a batch must exist before it is written
   * (usually they do: the worker creates them ahead). If the retention job drops a (very
   * old) month between the two, the batch fails with "no partition" (23514) and is retried
   * once after re-creating it.
   */
  private async inPartitions<T>(dates: string[], write: () => Promise<T>): Promise<T> {
    const months = monthsOf(dates);
    await this.partitions.ensureMonths(months);
    try {
      return await write();
    } catch (err) {
      if ((err as { code?: string }).code !== '23514') throw err;
      await this.partitions.ensureMonths(months);
      return write();
    }
  }

  private writeRows(propertyId: number, list: GscFactInput[]): Promise<number | null> {
    return this.sql.bulkTransaction(async (tx) => {
      const accountId = await tx.lockAccountRow(GscPropertyEntity, propertyId);
      if (accountId === null) return null;
      // No JIT for this statement: its cost estimate grows with the months a batch spans
      // (one partition probe each) and passed jit_above_cost; compiling a one-shot statement
      // is pure loss. Measured on a 10,000-row batch before the date bounds below
      // (docs/performance.md, "Your-data at agency scale"): JIT 1.6 s of a 2.6 s
      // execution; without it, 1.0 s. SET LOCAL ends with the transaction.
      await tx.run('SET LOCAL jit = off');
      const dates = list.map((r) => r.date).sort();
      await tx.run(UPSERT_ROWS_WITH_DELTAS_SQL, [
        propertyId,
        accountId,
        ...factColumns(list),
        dates[0],
        dates[dates.length - 1],
      ]);
      return list.length;
    });
  }

  /**
   * Replaces the daily rollups of `dates`, the weekly rollups of their 7-day month blocks and
   * the monthly rollups of their months for one property from the raw facts (bulk loads, repair). Runs in `tx` when given (e.g. the
   * transaction of a bulk load), else in its own transaction. `monthsFrom` 'weekly' sums the
   * months from their weekly rollups (replaceDay) instead of the daily ones (the default,
   * which also repairs weekly rollups of other blocks gone wrong).
   */
  async rebuildRollups(
    propertyId: number,
    dates: string[],
    tx?: SqlScope,
    monthsFrom: 'daily' | 'weekly' = 'daily',
  ): Promise<void> {
    if (!tx) {
      return this.sql.bulkTransaction((own) =>
        this.rebuildRollups(propertyId, dates, own, monthsFrom),
      );
    }
    const months = monthsOf(dates);
    await tx.run(
      `DELETE FROM gsc_daily_rollups WHERE property_id = $1 AND date = ANY($2::date[])`,
      [propertyId, dates],
    );
    await tx.run(REBUILD_ROLLUPS_SQL, [propertyId, dates]);
    const weeks = weeksOf(dates);
    await tx.run(
      `DELETE FROM gsc_weekly_rollups WHERE property_id = $1 AND week = ANY($2::date[])`,
      [propertyId, weeks],
    );
    await tx.run(REBUILD_WEEKLY_ROLLUPS_SQL, [propertyId, weeks]);
    await tx.run(
      `DELETE FROM gsc_monthly_rollups WHERE property_id = $1 AND month = ANY($2::date[])`,
      [propertyId, months],
    );
    await tx.run(
      monthsFrom === 'weekly' ? REBUILD_MONTHLY_FROM_WEEKLY_SQL : REBUILD_MONTHLY_ROLLUPS_SQL,
      [propertyId, months],
    );
  }
}
