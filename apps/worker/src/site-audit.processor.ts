import { BeforeApplicationShutdown, Inject, Logger } from '@nestjs/common';
import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { Job, WaitingError } from 'bullmq';
import { APP_CONFIG, AppConfig, Clock, metrics } from '@app/core';
import { runAudit } from '@app/crawler';
import {
  DEADLINE_EXCEEDED,
  ProgressReporter,
  SITE_AUDIT_QUEUE,
  SiteAuditJobPayload,
  SiteAuditJobsService,
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
    private readonly jobs: SiteAuditJobsService,
    private readonly clock: Clock,
  ) {
    super();
  }

  async process(job: Job<SiteAuditJobPayload>, token?: string): Promise<ProcessOutcome> {
    const jobId = job.data.jobId;
    const row = await this.jobs.markRunning(jobId, this.clock.now());
    if (!row) return { outcome: 'skipped' }; // already failed (swept, refused) or complete
    const params = row.params as unknown as SiteAuditParams;

    const remainingMs = row.deadlineAt.getTime() - this.clock.now().getTime();
    if (remainingMs <= 0) {
      await this.jobs.failAudit(
        jobId,
        DEADLINE_EXCEEDED,
        { refund: true, pagesUsed: 0 },
        this.clock.now(),
      );
      return { outcome: 'failed' };
    }

    const controller = new AbortController();
    this.active.add(controller);
    const progress = new ProgressReporter({
      write: (pct) => this.jobs.reportProgress(jobId, pct, this.clock.now()),
      onGone: () => controller.abort(),
      onError: (err) => this.logger.warn({ err, job_id: jobId }, 'Progress write failed'),
      minIntervalMs: PROGRESS_WRITE_INTERVAL_MS,
    });
    try {
      if (this.stopping) controller.abort();
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
        signal: controller.signal,
        onProgress: (done, planned) => progress.report(done, planned),
      });
      countPages(result.pages);
      const data = await this.jobs.completeWithAudit(
        { jobId, accountId: row.accountId, maxPages: params.max_pages, depth: params.depth },
        newAuditId(),
        result,
        this.clock.now(),
      );
      if (!data) {
        this.logger.warn(
          { job_id: jobId },
          'Job no longer running when its crawl finished; result discarded',
        );
        return { outcome: 'discarded' };
      }
      return { outcome: 'complete', audit_id: data.audit_id };
    } catch (err) {
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
          await this.jobs.failAudit(
            jobId,
            decision.error,
            { refund: false, pagesUsed: progress.pagesDone },
            this.clock.now(),
          );
          return { outcome: 'failed' };
        case 'retry':
          this.logger.warn(
            { err, job_id: jobId, attempt: job.attemptsMade + 1 },
            'Site audit attempt failed; will retry',
          );
          throw err;
        case 'internal':
          this.logger.error({ err, job_id: jobId }, 'Site audit failed on its last attempt');
          await this.jobs.failAudit(
            jobId,
            decision.error,
            { refund: true, pagesUsed: 0 },
            this.clock.now(),
          );
          throw err;
      }
    } finally {
      this.active.delete(controller);
    }
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
