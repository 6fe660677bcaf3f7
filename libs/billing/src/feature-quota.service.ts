import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { monthStart, plainDate } from '@app/core';

/** Monthly feature quotas. The limit of each is `${feature}_per_month` in Limits. */
export type Feature = 'keyword_research' | 'backlinks' | 'site_audit_crawls';

export const FEATURES: readonly Feature[] = ['keyword_research', 'backlinks', 'site_audit_crawls'];

/** A unit of quota taken; hand it back to `release` to refund exactly that unit. */
export interface QuotaReservation {
  accountId: number;
  feature: Feature;
  periodStart: string;
}

@Injectable()
export class FeatureQuotaService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Takes one unit of the month's quota in one atomic statement; null when used up. */
  async reserve(
    accountId: number,
    feature: Feature,
    limit: number,
    now: Date,
  ): Promise<QuotaReservation | null> {
    const periodStart = plainDate(monthStart(now));
    const rows: unknown[] = await this.db.query(
      `INSERT INTO feature_usage AS f (account_id, feature, period_start, used)
       SELECT $1, $2, $3::date, 1 WHERE $4::int > 0
       ON CONFLICT (account_id, feature, period_start)
       DO UPDATE SET used = f.used + 1 WHERE f.used < $4::int
       RETURNING used`,
      [accountId, feature, periodStart, limit],
    );
    return rows.length ? { accountId, feature, periodStart } : null;
  }

  /** Gives one reserved unit back (never below zero). */
  async release(r: QuotaReservation): Promise<void> {
    await this.db.query(
      `UPDATE feature_usage SET used = used - 1
       WHERE account_id = $1 AND feature = $2 AND period_start = $3::date AND used > 0`,
      [r.accountId, r.feature, r.periodStart],
    );
  }

  /** Units used this month, per feature. */
  async usedThisMonth(accountId: number, now: Date): Promise<Record<Feature, number>> {
    const rows: Array<{ feature: Feature; used: number }> = await this.db.query(
      `SELECT feature, used FROM feature_usage WHERE account_id = $1 AND period_start = $2::date`,
      [accountId, plainDate(monthStart(now))],
    );
    const out = Object.fromEntries(FEATURES.map((f) => [f, 0])) as Record<Feature, number>;
    for (const r of rows) if (r.feature in out) out[r.feature] = r.used;
    return out;
  }
}
