import { Inject, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { InjectQueue, Processor, WorkerHost } from '@nestjs/bullmq';
import { Queue } from 'bullmq';
import { APP_CONFIG, AppConfig } from '@app/core';
import { GSC_SYNC_DUE_JOB, GSC_SYNC_JOB_OPTIONS, GSC_SYNC_QUEUE } from './gsc-sync.queue';
import { GscSyncRunResult, GscSyncService } from './gsc-sync.service';

/** Waits between attempts to upsert the scheduler while Redis refuses writes. */
const SCHEDULE_RETRY_MS = [1_000, 2_000, 5_000, 10_000, 30_000];

/**
 * Runs the Search Console sync on a BullMQ job scheduler: `sync-due` every
 * GSC_SYNC_TICK_SECONDS (a property is due by its own `next_sync_at`: every
 * GSC_SYNC_INTERVAL_SECONDS once backfilled, at once while backfilling). Every worker
 * upserts the same scheduler at start (idempotent), in the background and retried while
 * Redis refuses it, as rank collection does. With GSC_SYNC_ENABLED=false the worker neither
 * schedules nor takes sync jobs.
 */
@Processor(GSC_SYNC_QUEUE, { concurrency: 1, autorun: false })
export class GscSyncProcessor
  extends WorkerHost
  implements OnApplicationBootstrap, OnModuleDestroy
{
  private readonly logger = new Logger(GscSyncProcessor.name);
  private stopped = false;
  private retryTimer: NodeJS.Timeout | undefined;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectQueue(GSC_SYNC_QUEUE) private readonly queue: Queue,
    private readonly sync: GscSyncService,
  ) {
    super();
  }

  onApplicationBootstrap(): void {
    if (!this.config.gscSync.enabled) {
      this.logger.log('Search Console sync is off (GSC_SYNC_ENABLED=false)');
      return;
    }
    this.worker.run().catch((err: unknown) => {
      if (!this.stopped) this.logger.error({ err }, 'Search Console sync worker stopped');
    });
    this.schedule(0);
  }

  onModuleDestroy(): void {
    this.stopped = true;
    clearTimeout(this.retryTimer);
  }

  /** Upserts the scheduler; on failure tries again later (until the worker stops). */
  private schedule(attempt: number): void {
    const every = this.config.gscSync.tickSeconds * 1000;
    this.queue
      .upsertJobScheduler(
        GSC_SYNC_DUE_JOB,
        { every },
        { name: GSC_SYNC_DUE_JOB, data: {}, opts: GSC_SYNC_JOB_OPTIONS },
      )
      .then(
        () => this.logger.log(`Search Console sync scheduled: every ${every / 1000} s`),
        (err: unknown) => {
          if (this.stopped) return;
          const wait = SCHEDULE_RETRY_MS[Math.min(attempt, SCHEDULE_RETRY_MS.length - 1)];
          this.logger.warn({ err, retryInMs: wait }, 'Search Console sync: scheduling failed');
          this.retryTimer = setTimeout(() => this.schedule(attempt + 1), wait);
          this.retryTimer.unref();
        },
      );
  }

  process(): Promise<GscSyncRunResult> {
    return this.sync.runDue();
  }
}
