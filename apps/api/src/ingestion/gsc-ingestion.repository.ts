import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CreateGscPropertyDto, GscRowDto } from './dto/gsc-ingestion.dto';
import { parseRecordTimestamp } from './ingestion-time';

/**
 * Rebuilds the daily per-dimension rollups of the given dates from the raw facts (one
 * statement, GROUPING SETS). Used by ingestion and by the large-data seed script.
 * `$1` = property id, `$2` = date[] of the dates to rebuild.
 */
export const REBUILD_ROLLUPS_SQL = `
  INSERT INTO gsc_daily_rollups (property_id, account_id, dim, date, key, clicks, impressions, position_weighted)
  SELECT property_id, account_id, dim, date, key, clicks, impressions, position_weighted FROM (
    SELECT property_id, account_id, date,
           CASE WHEN GROUPING(query) = 0 THEN 'query'
                WHEN GROUPING(page) = 0 THEN 'page'
                WHEN GROUPING(country) = 0 THEN 'country'
                WHEN GROUPING(device) = 0 THEN 'device'
                WHEN GROUPING(search_appearance) = 0 THEN 'searchAppearance'
                ELSE 'date' END AS dim,
           COALESCE(query, page, country, device, search_appearance, to_char(date, 'YYYY-MM-DD')) AS key,
           sum(clicks) AS clicks, sum(impressions) AS impressions,
           sum(position * impressions) AS position_weighted
    FROM gsc_rows
    WHERE property_id = $1 AND date = ANY($2::date[])
    GROUP BY property_id, account_id, date,
             GROUPING SETS ((query), (page), (country), (device), (search_appearance), ())
  ) g
  WHERE NOT (dim = 'searchAppearance' AND key = '')`;

/** Writes of GSC properties and daily fact rows (admin ingestion). */
@Injectable()
export class GscIngestionRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Creates the property, or updates the account's property with the same URI. null: no such account. */
  async upsertProperty(accountId: number, p: CreateGscPropertyDto, now: Date) {
    const rows: Array<Record<string, unknown> & { created: boolean }> = await this.db.query(
      `INSERT INTO gsc_properties (account_id, property_uri, display_name, status, google_email, is_sandbox,
         last_synced_at, last_sync_status, created_at, updated_at)
       SELECT a.id, $2, $3, $4, $5, $6, $7, $8, $9, $9 FROM accounts a WHERE a.id = $1
       ON CONFLICT ON CONSTRAINT gsc_properties_natural_key DO UPDATE SET
         display_name = EXCLUDED.display_name, status = EXCLUDED.status, google_email = EXCLUDED.google_email,
         is_sandbox = EXCLUDED.is_sandbox, last_synced_at = EXCLUDED.last_synced_at,
         last_sync_status = EXCLUDED.last_sync_status, updated_at = EXCLUDED.updated_at
       RETURNING id, property_uri, display_name, status, google_email, is_sandbox, last_synced_at,
                 last_sync_status, (xmax = 0) AS created`,
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
    );
    return rows[0] ?? null;
  }

  /**
   * Stores a batch of daily facts in one transaction: upsert on the natural key (date ×
   * query × page × country × device × search appearance; within a batch the last entry of a
   * key wins), then rebuild the rollups of the dates the batch touched. The property row is
   * locked first, so batches of one property are serialized and the rollups never miss a
   * concurrent write. Returns the number of rows stored, or null when the property does not exist.
   */
  async storeRows(propertyId: number, rows: GscRowDto[]): Promise<number | null> {
    const byKey = new Map<string, GscRowDto>();
    for (const r of rows) {
      const appearance = r.search_appearance ?? '';
      byKey.set(JSON.stringify([r.date, r.query, r.page, r.country, r.device, appearance]), r);
    }
    const list = [...byKey.values()];
    const dates = [...new Set(list.map((r) => r.date))];
    return this.db.transaction(async (m) => {
      const prop: Array<{ account_id: number }> = await m.query(
        `SELECT account_id FROM gsc_properties WHERE id = $1 FOR NO KEY UPDATE`,
        [propertyId],
      );
      if (!prop.length) return null;
      await m.query(
        `INSERT INTO gsc_rows (property_id, account_id, date, query, page, country, device, search_appearance,
           clicks, impressions, position)
         SELECT $1, $2, u.* FROM unnest($3::date[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
           $9::int[], $10::int[], $11::float8[]) AS u
         ON CONFLICT (property_id, date, query, page, country, device, search_appearance) DO UPDATE SET
           clicks = EXCLUDED.clicks, impressions = EXCLUDED.impressions, position = EXCLUDED.position`,
        [
          propertyId,
          prop[0].account_id,
          list.map((r) => r.date),
          list.map((r) => r.query),
          list.map((r) => r.page),
          list.map((r) => r.country),
          list.map((r) => r.device),
          list.map((r) => r.search_appearance ?? ''),
          list.map((r) => r.clicks),
          list.map((r) => r.impressions),
          list.map((r) => r.position),
        ],
      );
      await rebuildRollups(m, propertyId, dates);
      return list.length;
    });
  }
}

/**
 * Rebuilds the calendar-month rollups (every dim but date) of the months `$2` (month
 * starts) from the daily rollups. `$1` = property id.
 */
export const REBUILD_MONTHLY_ROLLUPS_SQL = `
  INSERT INTO gsc_monthly_rollups (property_id, account_id, dim, month, key, clicks, impressions, position_weighted)
  SELECT r.property_id, r.account_id, r.dim, m.month, r.key,
         sum(r.clicks), sum(r.impressions), sum(r.position_weighted)
  FROM unnest($2::date[]) AS m(month)
  JOIN gsc_daily_rollups r
    ON r.property_id = $1 AND r.date >= m.month AND r.date < (m.month + interval '1 month')::date
  WHERE r.dim <> 'date'
  GROUP BY r.property_id, r.account_id, r.dim, m.month, r.key`;

/** Month starts (YYYY-MM-01) of the given dates, without duplicates. */
export function monthsOf(dates: string[]): string[] {
  return [...new Set(dates.map((d) => `${d.slice(0, 7)}-01`))];
}

/** Anything that runs SQL: an EntityManager, a DataSource, a pg Client wrapper. */
export interface SqlRunner {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

/**
 * Replaces the daily rollups of `dates` and the monthly rollups of their months for one
 * property (inside the caller's transaction).
 */
export async function rebuildRollups(m: SqlRunner, propertyId: number, dates: string[]): Promise<void> {
  const months = monthsOf(dates);
  await m.query(`DELETE FROM gsc_daily_rollups WHERE property_id = $1 AND date = ANY($2::date[])`, [propertyId, dates]);
  await m.query(REBUILD_ROLLUPS_SQL, [propertyId, dates]);
  await m.query(`DELETE FROM gsc_monthly_rollups WHERE property_id = $1 AND month = ANY($2::date[])`, [propertyId, months]);
  await m.query(REBUILD_MONTHLY_ROLLUPS_SQL, [propertyId, months]);
}
