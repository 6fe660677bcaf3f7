import { Injectable } from '@nestjs/common';
import { metrics, monthStart, plainDate } from '@app/core';
import { FeatureQuotaRepository } from './feature-quota.repository';

/** Monthly feature quotas. The limit of each is `${feature}_per_month` in Limits. */
export type Feature = 'keyword_research' | 'backlinks' | 'site_audit_crawls';

const FEATURES: readonly Feature[] = ['keyword_research', 'backlinks', 'site_audit_crawls'];

/** A unit of quota taken; hand it back to `release` to refund exactly that unit. */
export interface QuotaReservation {
  accountId: number;
  feature: Feature;
  periodStart: string;
}

@Injectable()
export class FeatureQuotaService {
  constructor(private readonly quotas: FeatureQuotaRepository) {}

  /** Takes one unit of the month's quota in one atomic statement; null when used up. */
  async reserve(
    accountId: number,
    feature: Feature,
    limit: number,
    now: Date,
  ): Promise<QuotaReservation | null> {
    const periodStart = plainDate(monthStart(now));
    const taken = await this.quotas.take(accountId, feature, periodStart, limit);
    metrics.creditOperations.inc({ kind: 'quota', operation: taken ? 'reserve' : 'refused' });
    return taken ? { accountId, feature, periodStart } : null;
  }

  /** Gives one reserved unit back (never below zero). */
  async release(r: QuotaReservation): Promise<void> {
    await this.quotas.release(r.accountId, r.feature, r.periodStart);
    metrics.creditOperations.inc({ kind: 'quota', operation: 'refund' });
  }

  /** Units used this month, per feature. */
  async usedThisMonth(accountId: number, now: Date): Promise<Record<Feature, number>> {
    const rows = await this.quotas.usedIn(accountId, plainDate(monthStart(now)));
    const out = Object.fromEntries(FEATURES.map((f) => [f, 0])) as Record<Feature, number>;
    for (const r of rows) if (r.feature in out) out[r.feature] = r.used;
    return out;
  }
}
