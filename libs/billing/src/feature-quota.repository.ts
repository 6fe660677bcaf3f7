import { Injectable } from '@nestjs/common';
import { Sql } from '@app/database';
import type { Feature } from './feature-quota.service';

/**
 * Takes one unit of feature $2's quota of account $1 for the month starting $3 when fewer
 * than $4 are used, in one conditional upsert; returns (account_id, used), no row when the
 * quota is used up. Shared by every statement that takes a unit, so they cannot disagree.
 */
export const TAKE_QUOTA_UNIT = `INSERT INTO feature_usage AS f (account_id, feature, period_start, used)
         SELECT $1, $2, $3::date, 1 WHERE $4::int > 0
         ON CONFLICT (account_id, feature, period_start)
         DO UPDATE SET used = f.used + 1 WHERE f.used < $4::int
         RETURNING account_id, used`;

/** The statements of the monthly feature quotas (table feature_usage). */
@Injectable()
export class FeatureQuotaRepository {
  constructor(private readonly sql: Sql) {}

  /** One unit of the month's quota; false when used up. */
  async take(
    accountId: number,
    feature: Feature,
    periodStart: string,
    limit: number,
  ): Promise<boolean> {
    const rows = await this.sql.rows(TAKE_QUOTA_UNIT, [accountId, feature, periodStart, limit]);
    return rows.length > 0;
  }

  /** Gives one unit back (never below zero). */
  async release(accountId: number, feature: Feature, periodStart: string): Promise<void> {
    await this.sql.run(
      `UPDATE feature_usage SET used = used - 1
       WHERE account_id = $1 AND feature = $2 AND period_start = $3::date AND used > 0`,
      [accountId, feature, periodStart],
    );
  }

  /** Units used in the month starting `periodStart`, per feature that has a row. */
  async usedIn(
    accountId: number,
    periodStart: string,
  ): Promise<Array<{ feature: Feature; used: number }>> {
    return this.sql.rows(
      `SELECT feature, used FROM feature_usage WHERE account_id = $1 AND period_start = $2::date`,
      [accountId, periodStart],
    );
  }
}
