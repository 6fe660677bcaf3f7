import { Injectable } from '@nestjs/common';
import { Sql, SqlScope, statementMonth } from '@app/database';
import type { Feature } from './feature-quota.service';

/**
 * Takes one unit of feature $2's quota of account $1 for the month of the statement's time
 * ($3: null = PostgreSQL's `now()`, see statement-time.ts) when fewer than $4 are used, in one
 * conditional upsert; returns (account_id, used, period_start), no row when the quota is used
 * up. Shared by every statement that takes a unit, so they cannot disagree.
 */
export const TAKE_QUOTA_UNIT = `INSERT INTO feature_usage AS f (account_id, feature, period_start, used)
         SELECT $1, $2, ${statementMonth('$3')}, 1 WHERE $4::int > 0
         ON CONFLICT (account_id, feature, period_start)
         DO UPDATE SET used = f.used + 1 WHERE f.used < $4::int
         RETURNING account_id, used, period_start`;

/** A transaction (or the pool) the quota statements run on; services only pass it along. */
export type QuotaDb = SqlScope;

/** The statements of the monthly feature quotas (table feature_usage). */
@Injectable()
export class FeatureQuotaRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * One unit of the month's quota (the month of `at`, null: the database's clock): whether
   * it was taken, and the month (YYYY-MM-DD). On `db` (a transaction) when given.
   */
  async take(
    accountId: number,
    feature: Feature,
    at: Date | null,
    limit: number,
    db: SqlScope = this.sql,
  ): Promise<{ taken: boolean; periodStart: string }> {
    const row = await db.one<{ taken: boolean; period_start: string }>(
      `WITH q AS (${TAKE_QUOTA_UNIT})
       SELECT EXISTS (SELECT 1 FROM q) AS taken, ${statementMonth('$3')}::text AS period_start`,
      [accountId, feature, at, limit],
    );
    return { taken: row!.taken, periodStart: row!.period_start };
  }

  /** Gives one unit back (never below zero). On `db` (a transaction) when given. */
  async release(
    accountId: number,
    feature: Feature,
    periodStart: string,
    db: SqlScope = this.sql,
  ): Promise<void> {
    await db.run(
      `UPDATE feature_usage SET used = used - 1
       WHERE account_id = $1 AND feature = $2 AND period_start = $3::date AND used > 0`,
      [accountId, feature, periodStart],
    );
  }

  /** Units used in the month of `at` (null: the database's clock), per feature that has a row. */
  async usedIn(
    accountId: number,
    at: Date | null,
  ): Promise<Array<{ feature: Feature; used: number }>> {
    return this.sql.rows(
      `SELECT feature, used FROM feature_usage
       WHERE account_id = $1 AND period_start = ${statementMonth('$2')}`,
      [accountId, at],
    );
  }
}
