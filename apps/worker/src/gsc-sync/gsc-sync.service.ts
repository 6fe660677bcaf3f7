import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { APP_CONFIG, AppConfig, Clock, metrics } from '@app/core';
import { GscFactInput, GscIngestionRepository, RankChecksRepository } from '@app/database';
import {
  SEARCH_CONSOLE_SOURCE,
  SandboxSearchConsoleSource,
  SearchConsoleAccess,
  SearchConsoleError,
  SearchConsoleRow,
  SearchConsoleSource,
  isSearchConsoleError,
} from '@app/providers';
import { GscRequestQuota } from './gsc-quota';
import { ClaimedProperty, GscSyncRepository, LostClaimError, RunEnd } from './gsc-sync.repository';
import { PlanOptions, planRun } from './gsc-sync.plan';

/** Properties one worker syncs side by side (one's failure or back-off never stops the others). */
const LANES = 4;
/** A claim's lease, extended with every stored day. */
const LEASE_MS = 10 * 60_000;
/** Backfill days one claim of a property pulls before it waits its turn again. */
const BACKFILL_DAYS_PER_RUN = 31;
/** A run stops claiming after this long (the next tick goes on). */
const RUN_BUDGET_MS = 5 * 60_000;
/** After a quota answer, at least this long (Google: "wait 15 minutes" for the load quota). */
const QUOTA_BACKOFF_MS = 15 * 60_000;
/** After a network error or a 5xx. */
const TRANSIENT_BACKOFF_MS = 5 * 60_000;

export interface GscSyncRunResult {
  claimed: number;
  days: number;
  rows: number;
  failed: number;
}

/**
 * The Search Console sync (docs/gsc-sync.md): claims due properties, pulls the days their
 * plan says (gsc-sync.plan.ts) one request per day and page, and replaces each day as a whole
 * through the ingestion write path, with the property's progress and the rank checks'
 * figures of that day in the same transaction.
 */
@Injectable()
export class GscSyncService {
  private readonly logger = new Logger(GscSyncService.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly repo: GscSyncRepository,
    private readonly ingestion: GscIngestionRepository,
    private readonly rankChecks: RankChecksRepository,
    private readonly quota: GscRequestQuota,
    private readonly sandbox: SandboxSearchConsoleSource,
    @Optional() @Inject(SEARCH_CONSOLE_SOURCE) private readonly google?: SearchConsoleSource,
  ) {}

  /**
   * Claims and syncs due properties until none is left or the run's budget is spent: 4
   * lanes side by side, each claiming one property at a time, so a slow or failing property
   * holds up only its own lane.
   */
  async runDue(): Promise<GscSyncRunResult> {
    const result: GscSyncRunResult = { claimed: 0, days: 0, rows: 0, failed: 0 };
    const started = Date.now();
    const lane = async () => {
      while (Date.now() - started < RUN_BUDGET_MS) {
        const now = this.clock.now();
        const [p] = await this.repo.claimDue(now, new Date(now.getTime() + LEASE_MS), 1);
        if (!p) return;
        result.claimed++;
        const o = await this.syncProperty(p);
        result.days += o.days;
        result.rows += o.rows;
        if (!o.ok) result.failed++;
      }
    };
    await Promise.all(Array.from({ length: LANES }, lane));
    metrics.gscBackfillDaysRemaining.set(await this.repo.backfillDaysRemaining());
    if (result.claimed) this.logger.log({ ...result }, 'Search Console sync: run done');
    return result;
  }

  /** One claimed property's run; never throws (its failure is recorded on it). */
  async syncProperty(p: ClaimedProperty): Promise<{ ok: boolean; days: number; rows: number }> {
    const done = { days: 0, rows: 0 };
    try {
      const source = p.is_sandbox ? this.sandbox : this.google;
      if (!source) {
        await this.end(p, 'error', this.intervalMs(), 'no Google Search Console client configured');
        return { ok: false, ...done };
      }
      const plan = planRun(
        {
          backfillFrom: p.backfill_from,
          daysTotal: p.backfill_days_total,
          daysDone: p.backfill_days_done,
        },
        this.clock.now(),
        this.planOptions(),
      );
      if (p.backfill_from === null) {
        await this.repo.planBackfill(p, plan.state);
        p.backfill_from = plan.state.backfillFrom;
        p.backfill_days_total = plan.state.daysTotal;
        p.backfill_days_done = 0;
      }
      const access = await this.accessOf(source, p);
      // The incremental days, newest first; the anchor moves with the last (oldest) of them.
      for (const [i, day] of plan.incremental.entries()) {
        const last = i === plan.incremental.length - 1;
        const adv = last ? plan.anchorAdvance : 0;
        done.rows += await this.syncDay(source, access, p, day, { doneInc: adv, totalInc: adv });
        done.days++;
      }
      for (const day of plan.backfill) {
        done.rows += await this.syncDay(source, access, p, day, { doneInc: 1, totalInc: 0 });
        done.days++;
      }
      const complete = p.backfill_days_done >= p.backfill_days_total;
      await this.end(p, complete ? 'ok' : 'partial', complete ? this.intervalMs() : 0, null);
      return { ok: true, ...done };
    } catch (err) {
      await this.fail(p, err);
      return { ok: false, ...done };
    }
  }

  /** Pulls one day (every page) and replaces it, with the property's progress, atomically. */
  private async syncDay(
    source: SearchConsoleSource,
    access: SearchConsoleAccess,
    p: ClaimedProperty,
    day: string,
    progress: { doneInc: number; totalInc: number },
  ): Promise<number> {
    const rows = await this.pullDay(source, access, p, day);
    const now = this.clock.now();
    const lease = new Date(now.getTime() + LEASE_MS);
    const stored = await this.ingestion.replaceDay(p.id, day, rows, async (tx) => {
      await this.repo.recordDay(tx, p, now, lease, progress);
      await this.rankChecks.applySearchConsoleDay(tx, p.id, day);
    });
    if (stored === null) throw new LostClaimError(p.id); // the property was removed
    p.claimed_until = lease;
    p.backfill_days_done += progress.doneInc;
    p.backfill_days_total += progress.totalInc;
    metrics.gscSyncRows.inc(stored);
    return stored;
  }

  /** Every row of one day: pages of GSC_ROW_LIMIT from startRow 0 until a short or empty page. */
  private async pullDay(
    source: SearchConsoleSource,
    access: SearchConsoleAccess,
    p: ClaimedProperty,
    day: string,
  ): Promise<GscFactInput[]> {
    const { rowLimit } = this.config.gscSync;
    const facts: GscFactInput[] = [];
    for (let startRow = 0; ; startRow += rowLimit) {
      await this.quota.take(p.property_uri, p.google_email);
      const page = await this.counted(() =>
        source.query(access, p.property_uri, day, startRow, rowLimit),
      );
      for (const row of page.rows) facts.push(factOf(row, day));
      if (page.rows.length < rowLimit) return facts;
    }
  }

  private accessOf(source: SearchConsoleSource, p: ClaimedProperty): Promise<SearchConsoleAccess> {
    if (p.is_sandbox) return Promise.resolve({ connectionId: null, accessToken: 'sandbox' });
    return this.counted(() =>
      source.accessFor({ id: p.connection_id!, refreshTokenEnc: p.refresh_token_enc! }),
    );
  }

  /** A call to Google, counted in gsc_sync_requests_total by its result. */
  private async counted<T>(call: () => Promise<T>): Promise<T> {
    try {
      const answer = await call();
      metrics.gscSyncRequests.inc({ result: 'ok' });
      return answer;
    } catch (err) {
      metrics.gscSyncRequests.inc({ result: isSearchConsoleError(err) ? err.kind : 'fatal' });
      throw err;
    }
  }

  /** What a failure does to the property (docs/gsc-sync.md, "Failures"). */
  private async fail(p: ClaimedProperty, err: unknown): Promise<void> {
    if (err instanceof LostClaimError) {
      this.logger.warn(`Search Console sync: property ${p.id}: claim lost, run stopped`);
      return;
    }
    const message = err instanceof Error ? err.message : String(err);
    this.logger.warn({ propertyId: p.id, err: message }, 'Search Console sync: property failed');
    try {
      if (!(err instanceof SearchConsoleError)) {
        return await this.end(p, 'error', this.intervalMs(), message);
      }
      switch (err.kind) {
        case 'reauth_required':
          return await this.repo.requireReauth(p, message, this.clock.now());
        case 'quota':
          return await this.end(
            p,
            'quota_exceeded',
            Math.max(err.retryAfterMs ?? 0, QUOTA_BACKOFF_MS),
            message,
          );
        case 'transient':
          return await this.end(
            p,
            'error',
            Math.min(TRANSIENT_BACKOFF_MS, this.intervalMs()),
            message,
          );
        case 'not_found':
        case 'fatal':
          return await this.end(p, 'error', this.intervalMs(), message);
      }
    } catch (recordErr) {
      if (recordErr instanceof LostClaimError) return;
      // The claim expires by itself; the property is claimed again after its lease.
      this.logger.error(
        { err: recordErr, propertyId: p.id },
        'Search Console sync: recording a failure failed',
      );
    }
  }

  private end(
    p: ClaimedProperty,
    status: RunEnd['status'],
    inMs: number,
    lastError: string | null,
  ) {
    const now = this.clock.now();
    return this.repo.endRun(
      p,
      {
        status,
        nextSyncAt: new Date(now.getTime() + inMs),
        lastError: lastError?.slice(0, 500) ?? null,
      },
      now,
    );
  }

  private intervalMs(): number {
    return this.config.gscSync.intervalSeconds * 1000;
  }

  private planOptions(): PlanOptions {
    const { backfillMonths, finalDayLagDays } = this.config.gscSync;
    return {
      backfillMonths,
      finalDayLagDays,
      retentionMonths: this.config.gscMaintenance.retentionMonths,
      backfillDaysPerRun: BACKFILL_DAYS_PER_RUN,
    };
  }
}

/**
 * A Google row (keys date, query, page, country, device) as a fact: country and device in
 * lower case as the facts store them; a position below 1 (never sent by Google) stored as 1.
 */
function factOf(row: SearchConsoleRow, day: string): GscFactInput {
  const [date, query, page, country, device] = row.keys;
  if (date !== day) {
    throw new SearchConsoleError('fatal', `a row of ${String(date)} in the answer for ${day}`);
  }
  return {
    date: day,
    query,
    page,
    country: country.toLowerCase(),
    device: device.toLowerCase(),
    clicks: row.clicks,
    impressions: row.impressions,
    position: Math.max(1, row.position),
  };
}
