import { BeforeApplicationShutdown, Inject, Logger } from '@nestjs/common';
import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { Job, WaitingError } from 'bullmq';
import { APP_CONFIG, AppConfig, Clock, metrics } from '@app/core';
import { runAudit } from '@app/crawler';
import type { JobEntity, JobError } from '@app/database';
import {
  DEADLINE_EXCEEDED,
  ProgressReporter,
  SITE_AUDIT_QUEUE,
  SiteAuditJobPayload,
  JobLifecycleService,
  JobRecordsRepository,
  SiteAuditParams,
  decideFailure,
  newAuditId,
} from '@app/site-audit';
import { siteAuditWorkerOptions } from './worker-options';

/** Least time between two progress writes of one job. */
const PROGRESS_WRITE_INTERVAL_MS = 1000;

interface ProcessOutcome {
  outcome: 'complete' | 'failed' | 'skipped' | 'discarded' | 'gone';
  audit_id?: string;
}

/**
 * Runs site audits: job row running → crawl with throttled progress → audit stored and row
 * complete, or row failed with a reason. Transient errors are retried by BullMQ (attempts and
 * backoff in libs/site-audit/src/site-audit.queue.ts); only the last failure marks the row
 * failed (failure policy: libs/site-audit/src/crawl-failure.ts).
 */
@Processor(SITE_AUDIT_QUEUE, siteAuditWorkerOptions())
export class SiteAuditProcessor extends WorkerHost implements BeforeApplicationShutdown {
  private readonly logger = new Logger(SiteAuditProcessor.name);
  private readonly active = new Set<AbortController>();
  private stopping = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly lifecycle: JobLifecycleService,
    private readonly records: JobRecordsRepository,
    private readonly clock: Clock,
  ) {
    super();
  }

  async process(job: Job<SiteAuditJobPayload>, token?: string): Promise<ProcessOutcome> {
    const jobId = job.data.jobId;
    const row = await this.records.markRunning(jobId, this.clock.now());
    if (!row) return { outcome: 'skipped' }; // already failed (swept, refused) or complete
    const remainingMs = row.deadlineAt.getTime() - this.clock.now().getTime();
    if (remainingMs <= 0) {
      await this.fail(jobId, DEADLINE_EXCEEDED, { refund: true, pagesUsed: 0 });
      return { outcome: 'failed' };
    }
    const controller = new AbortController();
    this.active.add(controller);
    const progress = this.progressReporter(jobId, controller);
    try {
      if (this.stopping) controller.abort();
      return await this.crawlAndStore(row, remainingMs, controller.signal, progress);
    } catch (err) {
      return await this.settleFailure(err, job, progress, token);
    } finally {
      this.active.delete(controller);
    }
  }

  /** Progress writes at most once a second; a job gone from `running` aborts its crawl. */
  private progressReporter(jobId: string, controller: AbortController): ProgressReporter {
    return new ProgressReporter({
      write: (pct) => this.records.reportProgress(jobId, pct, this.clock.now()),
      onGone: () => controller.abort(),
      onError: (err) => this.logger.warn({ err, job_id: jobId }, 'Progress write failed'),
      minIntervalMs: PROGRESS_WRITE_INTERVAL_MS,
    });
  }

  /** Crawls within the job's deadline, then stores the audit and completes the row. */
  private async crawlAndStore(
    row: JobEntity,
    remainingMs: number,
    signal: AbortSignal,
    progress: ProgressReporter,
  ): Promise<ProcessOutcome> {
    const params = row.params as unknown as SiteAuditParams;
    const result = await runAudit({
      startUrl: params.url,
      maxPages: params.max_pages,
      maxDepth: params.depth,
      userAgent: this.config.audit.userAgent,
      allowPrivateNetworks: this.config.auditAllowPrivateNetworks,
      politenessDelayMs: this.config.audit.politenessDelayMs,
      timeLimitMs: Math.max(
        1000,
        Math.min(this.config.audit.crawlTimeLimitSeconds * 1000, remainingMs),
      ),
      signal,
      onProgress: (done, planned) => progress.report(done, planned),
    });
    countPages(result.pages);
    const data = await this.lifecycle.completeWithAudit(
      { jobId: row.id, accountId: row.accountId, maxPages: params.max_pages, depth: params.depth },
      newAuditId(),
      result,
      this.clock.now(),
    );
    if (!data) {
      this.logger.warn(
        { job_id: row.id },
        'Job no longer running when its crawl finished; result discarded',
      );
      return { outcome: 'discarded' };
    }
    return { outcome: 'complete', audit_id: data.audit_id };
  }

  /**
   * What a failed attempt leads to (failure policy: decideFailure): nothing (the row is gone),
   * back to the queue (shutdown), the row failed (site fault, or our fault on the last
   * attempt, refunded), or a retry by BullMQ (rethrown).
   */
  private async settleFailure(
    err: unknown,
    job: Job<SiteAuditJobPayload>,
    progress: ProgressReporter,
    token?: string,
  ): Promise<ProcessOutcome> {
    const jobId = job.data.jobId;
    const finalAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    const decision = decideFailure(err, {
      gone: progress.isGone,
      stopping: this.stopping,
      finalAttempt,
    });
    switch (decision.kind) {
      case 'gone':
        return { outcome: 'gone' };
      case 'requeue':
        this.logger.log({ job_id: jobId }, 'Shutting down: job handed back to the queue');
        await job.moveToWait(token);
        throw new WaitingError();
      case 'site':
        await this.fail(jobId, decision.error, { refund: false, pagesUsed: progress.pagesDone });
        return { outcome: 'failed' };
      case 'retry':
        this.logger.warn(
          { err, job_id: jobId, attempt: job.attemptsMade + 1 },
          'Site audit attempt failed; will retry',
        );
        throw err;
      case 'internal':
        this.logger.error({ err, job_id: jobId }, 'Site audit failed on its last attempt');
        await this.fail(jobId, decision.error, { refund: true, pagesUsed: 0 });
        throw err;
    }
  }

  /** The row failed now, its quota settled as `settlement` says. */
  private async fail(
    jobId: string,
    error: JobError,
    settlement: { refund: boolean; pagesUsed: number },
  ): Promise<void> {
    await this.lifecycle.failAudit(jobId, error, settlement, this.clock.now());
  }

  /**
   * SIGTERM: stop taking jobs, cancel running crawls (each goes back to the queue without
   * using an attempt) and wait for the worker to close, before the database and Redis
   * connections are closed. A job whose crawl does not stop is recovered as stalled by
   * another worker once its lock expires.
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    for (const controller of this.active) controller.abort();
    await this.worker.close();
  }

  @OnWorkerEvent('stalled')
  onStalled(jobId: string): void {
    this.logger.warn({ job_id: jobId }, 'Site audit job stalled (its worker died); recovered');
  }

  @OnWorkerEvent('error')
  onError(err: Error): void {
    this.logger.error({ err }, 'Site audit worker error');
  }
}

/** `crawl_pages_total{outcome}`: pages with an HTTP answer (any status) vs. fetches that failed. */
function countPages(pages: ReadonlyArray<{ status: number | null }>): void {
  let failed = 0;
  for (const p of pages) if (p.status === null) failed++;
  if (pages.length > failed) metrics.crawlPages.inc({ outcome: 'fetched' }, pages.length - failed);
  if (failed > 0) metrics.crawlPages.inc({ outcome: 'failed' }, failed);
}
