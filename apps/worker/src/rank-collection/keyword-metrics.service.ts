import { Injectable, Logger } from '@nestjs/common';
import { Clock, metrics, plainDate } from '@app/core';
import {
  KEYWORD_OVERVIEW_BATCH,
  KEYWORD_OVERVIEW_ENDPOINT,
  MARKETS,
  SeoDataProvider,
  normalizeKeyword,
} from '@app/providers';
import {
  KeywordMetricsRepository,
  MetricsDueRow,
  MetricsUpdate,
} from './keyword-metrics.repository';

/** Metrics are fetched again after this. */
const REFRESH_AFTER_MS = 30 * 86_400_000;
/** Most keyword_overview calls of one run. */
const CALLS_PER_RUN = 5;

export interface MetricsRunResult {
  keywords: number;
  calls: number;
  failedCalls: number;
}

/**
 * Difficulty, search volume and cpc of tracked keywords (docs/rank-collection.md): fetched
 * from the research provider's keyword overview for keywords never fetched or fetched 30
 * days ago, in batches of up to 700 of one market, run on the check interval. A failed call
 * is tried again at the next run; a keyword the provider has no data for keeps its figures.
 */
@Injectable()
export class KeywordMetricsService {
  private readonly logger = new Logger(KeywordMetricsService.name);

  constructor(
    private readonly repo: KeywordMetricsRepository,
    private readonly provider: SeoDataProvider,
    private readonly clock: Clock,
  ) {}

  async refresh(): Promise<MetricsRunResult> {
    const now = this.clock.now();
    const due = await this.repo.due(
      new Date(now.getTime() - REFRESH_AFTER_MS),
      KEYWORD_OVERVIEW_BATCH * CALLS_PER_RUN,
    );
    const result: MetricsRunResult = { keywords: 0, calls: 0, failedCalls: 0 };
    for (const batch of marketBatches(due)) {
      result.calls++;
      if (await this.refreshBatch(batch, now)) result.keywords += batch.length;
      else result.failedCalls++;
    }
    if (result.calls) this.logger.log({ ...result }, 'Rank collection: keyword metrics refreshed');
    return result;
  }

  /** One keyword_overview call for keywords of one market; false when it failed. */
  private async refreshBatch(batch: MetricsDueRow[], now: Date): Promise<boolean> {
    const { country, language } = batch[0];
    const market = MARKETS.find((m) => m.country_iso === country.toUpperCase());
    const endpoint = KEYWORD_OVERVIEW_ENDPOINT;
    const spend = { day: plainDate(now), endpoint, usd: 0 };
    if (!market) {
      await this.repo.store(batch, [], spend, now); // no market: nothing to ask, not asked again for 30 days
      return true;
    }
    try {
      const answer = await this.provider.keywordMetrics({
        keywords: batch.map((k) => k.keyword),
        locationCode: market.location_code,
        upstreamLanguage: language,
      });
      const updates: MetricsUpdate[] = [];
      for (const k of batch) {
        const m = answer.byKeyword.get(normalizeKeyword(k.keyword));
        if (m) updates.push({ id: k.id, ...m });
      }
      await this.repo.store(batch, updates, { ...spend, usd: answer.cost }, now);
      if (answer.cost > 0) metrics.providerSpendUsd.inc({ endpoint }, answer.cost);
      metrics.providerTasks.inc({ endpoint, result: 'collected' });
      return true;
    } catch (err) {
      metrics.providerTasks.inc({ endpoint, result: 'failed' });
      this.logger.warn({ err, country, language }, 'Rank collection: keyword metrics call failed');
      return false;
    }
  }
}

/** Due keywords (ordered by market) cut into batches of one market and at most 700. */
export function marketBatches(due: MetricsDueRow[]): MetricsDueRow[][] {
  const batches: MetricsDueRow[][] = [];
  for (const k of due) {
    const last = batches[batches.length - 1];
    const same = last && last[0].country === k.country && last[0].language === k.language;
    if (same && last.length < KEYWORD_OVERVIEW_BATCH) last.push(k);
    else batches.push([k]);
  }
  return batches;
}
