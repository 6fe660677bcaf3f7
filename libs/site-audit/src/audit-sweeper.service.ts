import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig, Clock, PeriodicTask } from '@app/core';
import type { JobError } from '@app/database';
import { DEADLINE_EXCEEDED, INTERNAL_ERROR, LOST, STALLED } from './crawl-failure';
import { QueueOutcome, SiteAuditQueue } from './site-audit.queue';
import { JobLifecycleService } from './job-lifecycle.service';
import { JobRecordsRepository } from './job-records.repository';

const BATCH = 100;
/** Open rows younger than this are never judged by their queue state (the API enqueues right after the insert). */
const ORPHAN_GRACE_MS = 60_000;

/** Why a row whose queue job ended without ending it fails. */
const ORPHAN_ERRORS: Record<NonNullable<QueueOutcome>, JobError> = {
  lost: LOST,
  completed: INTERNAL_ERROR,
  stalled: STALLED,
  failed: INTERNAL_ERROR,
};

export interface SweepResult {
  deadline: number;
  orphaned: number;
}

/**
 * No job stays queued or running forever. On an interval, every worker process:
 * 1. fails open rows past their deadline (DEADLINE_EXCEEDED), and
 * 2. fails open rows whose queue job has ended without ending the row: failed in BullMQ
 *    (e.g. stalled more than AUDIT_MAX_STALLED_COUNT times → STALLED) or gone (LOST).
 * Both are our fault: the crawl count and the pages are refunded. The conditional UPDATE in
 * failAudit makes concurrent sweepers (and a finishing worker) safe: each row ends once.
 * Runs in the worker process only (apps/worker provides it).
 */
@Injectable()
export class AuditSweeperService extends PeriodicTask<SweepResult> {
  protected readonly logger = new Logger(AuditSweeperService.name);
  protected readonly taskName = 'Site-audit sweep';

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly queue: SiteAuditQueue,
    private readonly jobs: JobLifecycleService,
    private readonly records: JobRecordsRepository,
    private readonly clock: Clock,
  ) {
    super();
  }

  protected get intervalMs(): number {
    return this.config.audit.sweepIntervalMs;
  }

  protected async run(): Promise<SweepResult> {
    const now = this.clock.now();
    let deadline = 0;
    for (const row of await this.records.overdue(now, BATCH)) {
      if (await this.jobs.failAudit(row.id, DEADLINE_EXCEEDED, { refund: true, pagesUsed: 0 }, now))
        deadline++;
    }
    let orphaned = 0;
    const grace = Math.max(ORPHAN_GRACE_MS, 3 * this.config.audit.stalledIntervalMs);
    for (const row of await this.records.openCreatedBefore(
      new Date(now.getTime() - grace),
      BATCH,
    )) {
      const outcome = await this.queue.outcome(row.id);
      if (
        outcome &&
        (await this.jobs.failAudit(
          row.id,
          ORPHAN_ERRORS[outcome],
          { refund: true, pagesUsed: 0 },
          this.clock.now(),
        ))
      ) {
        orphaned++;
      }
    }
    if (deadline || orphaned)
      this.logger.warn(`Swept site-audit jobs: ${deadline} past deadline, ${orphaned} orphaned`);
    return { deadline, orphaned };
  }
}
