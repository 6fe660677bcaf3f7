import { Injectable } from '@nestjs/common';
import { metrics } from '@app/core';
import { FeatureQuotaRepository, QuotaDb } from './feature-quota.repository';

/** Monthly feature quotas. The limit of each is `${feature}_per_month` in Limits. */
export type Feature = 'keyword_research' | 'backlinks' | 'site_audit_crawls';

const FEATURES: readonly Feature[] = ['keyword_research', 'backlinks', 'site_audit_crawls'];

/** A unit of quota taken; hand it back to `release` to refund exactly that unit. */
export interface QuotaReservation {
  accountId: number;
  feature: Feature;
  periodStart: string;
}

/**
 * The month of every quota is PostgreSQL's (`at` is `Clock.statementTime()`: null in
 * production, a test clock's time in tests; see libs/database statement-time.ts).
 */
@Injectable()
export class FeatureQuotaService {
  constructor(private readonly quotas: FeatureQuotaRepository) {}

  /**
   * Takes one unit of the month's quota in one atomic statement (reservation null when used
   * up), and answers the database's month either way. With
   * `db` (a transaction), the unit commits or rolls back with what else that transaction
   * writes (the site-audit job row).
   */
  async reserve(
    accountId: number,
    feature: Feature,
    limit: number,
    at: Date | null,
    db?: QuotaDb,
  ): Promise<{ reservation: QuotaReservation | null; periodStart: string }> {
    const { taken, periodStart } = await this.quotas.take(accountId, feature, at, limit, db);
    metrics.creditOperations.inc({ kind: 'quota', operation: taken ? 'reserve' : 'refused' });
    return { reservation: taken ? { accountId, feature, periodStart } : null, periodStart };
  }

  /** Gives one reserved unit back (never below zero); with `db`, inside that transaction. */
  async release(r: QuotaReservation, db?: QuotaDb): Promise<void> {
    await this.quotas.release(r.accountId, r.feature, r.periodStart, db);
    metrics.creditOperations.inc({ kind: 'quota', operation: 'refund' });
  }

  /** Units used this month (the database's month; `at` only in tests), per feature. */
  async usedThisMonth(accountId: number, at: Date | null): Promise<Record<Feature, number>> {
    const rows = await this.quotas.usedIn(accountId, at);
    const out = Object.fromEntries(FEATURES.map((f) => [f, 0])) as Record<Feature, number>;
    for (const r of rows) if (r.feature in out) out[r.feature] = r.used;
    return out;
  }
}
