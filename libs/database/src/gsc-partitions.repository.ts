import { Injectable } from '@nestjs/common';
import { Sql } from './sql';

/** `gsc_rows` partitions are named after their month: gsc_rows_pYYYYMM. */
const PARTITION_NAME = /^gsc_rows_p(\d{4})(\d{2})$/;
const MONTH_START = /^\d{4}-\d{2}-01$/;
/** Advisory-lock key of partition DDL on gsc_rows (any constant; shared by API and worker). */
const PARTITION_LOCK_KEY = 1764500000;

/** Rollup dimensions (the leading key columns after property_id); see gsc_daily_rollups. */
const ROLLUP_DIMS = ['query', 'page', 'country', 'device', 'searchAppearance', 'date'];
/** The rollup tables and their period column (fixed names: never from input). */
const ROLLUP_PERIODS = [
  ['gsc_daily_rollups', 'date'],
  ['gsc_weekly_rollups', 'week'],
  ['gsc_monthly_rollups', 'month'],
] as const;

export interface GscRetentionResult {
  /** The partitions (months) detached and dropped. */
  dropped: string[];
  /** Rollup rows deleted (daily + weekly + monthly) for months before the cut-off. */
  rollupRowsDeleted: number;
}

/** `YYYY-MM-01` of the month `offset` months after the month of `date` (`YYYY-MM-DD`). */
export function monthStart(date: string, offset = 0): string {
  const y = Number(date.slice(0, 4));
  const m = Number(date.slice(5, 7)) - 1 + offset;
  const year = y + Math.floor(m / 12);
  const month = ((m % 12) + 12) % 12;
  return `${String(year).padStart(4, '0')}-${String(month + 1).padStart(2, '0')}-01`;
}

export function partitionName(month: string): string {
  return `gsc_rows_p${month.slice(0, 4)}${month.slice(5, 7)}`;
}

/**
 * The monthly partitions of `gsc_rows` (migration 1764500000000): creating the months a
 * batch needs (ingestion) or that are coming (worker maintenance), and the retention that
 * detaches and drops months older than the window and trims the rollups to match. Partition
 * DDL is serialized across processes by a transaction-scoped advisory lock.
 */
@Injectable()
export class GscPartitionRepository {
  constructor(private readonly sql: Sql) {}

  /** Month starts (`YYYY-MM-01`) of the existing partitions, ascending. */
  async months(): Promise<string[]> {
    const rows = await this.sql.rows<{ name: string }>(
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
       WHERE i.inhparent = 'gsc_rows'::regclass`,
    );
    return rows
      .map((r) => PARTITION_NAME.exec(r.name))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => `${m[1]}-${m[2]}-01`)
      .sort();
  }

  /**
   * Makes sure a partition exists for each month (`YYYY-MM-01`). Creates only the missing
   * ones, in a short transaction of its own (creating a partition locks gsc_rows briefly).
   * Returns the months created.
   */
  async ensureMonths(months: string[]): Promise<string[]> {
    const wanted = [...new Set(months)];
    for (const m of wanted) {
      if (!MONTH_START.test(m)) throw new Error(`not a month start: ${m}`);
    }
    const existing = new Set(await this.months());
    const missing = wanted.filter((m) => !existing.has(m));
    if (missing.length === 0) return [];
    await this.sql.bulkTransaction(async (tx) => {
      await tx.run(`SELECT pg_advisory_xact_lock($1)`, [PARTITION_LOCK_KEY]);
      for (const m of missing) {
        // Month strings are checked above (digits only): safe to interpolate.
        await tx.run(
          `CREATE TABLE IF NOT EXISTS ${partitionName(m)} PARTITION OF gsc_rows
             FOR VALUES FROM ('${m}') TO ('${monthStart(m, 1)}')`,
        );
      }
    });
    return missing;
  }

  /**
   * Retention: detaches and drops every partition of a month before `cutoffMonth`
   * (`YYYY-MM-01`) and deletes the daily, weekly and monthly rollups before it, in one transaction,
   * so facts and rollups always describe the same months. Returns null when another process
   * holds the partition lock (it is doing the same work).
   */
  async dropMonthsBefore(cutoffMonth: string): Promise<GscRetentionResult | null> {
    if (!MONTH_START.test(cutoffMonth)) throw new Error(`not a month start: ${cutoffMonth}`);
    const old = (await this.months()).filter((m) => m < cutoffMonth);
    return this.sql.transaction(async (tx) => {
      const locked = await tx.one<{ ok: boolean }>(`SELECT pg_try_advisory_xact_lock($1) AS ok`, [
        PARTITION_LOCK_KEY,
      ]);
      if (!locked?.ok) return null;
      // Detaching locks gsc_rows; never wait long behind an ingestion batch (retried next run).
      await tx.run(`SET LOCAL lock_timeout = '10s'`);
      const dropped: string[] = [];
      for (const m of old) {
        const name = partitionName(m);
        await tx.run(`ALTER TABLE gsc_rows DETACH PARTITION ${name}`);
        await tx.run(`DROP TABLE ${name}`);
        dropped.push(name);
      }
      // Weekly blocks never cross a month (migration 1764600000000): whole months go.
      let rollupRowsDeleted = 0;
      for (const [table, column] of ROLLUP_PERIODS) {
        const deleted = await tx.one<{ n: number }>(
          `WITH d AS (
             DELETE FROM ${table} r USING gsc_properties p, unnest($2::text[]) AS x(dim)
             WHERE r.property_id = p.id AND r.dim = x.dim AND r.${column} < $1::date
             RETURNING 1)
           SELECT count(*)::int AS n FROM d`,
          [cutoffMonth, ROLLUP_DIMS],
        );
        rollupRowsDeleted += deleted?.n ?? 0;
      }
      return {
        dropped,
        rollupRowsDeleted,
      };
    });
  }
}
