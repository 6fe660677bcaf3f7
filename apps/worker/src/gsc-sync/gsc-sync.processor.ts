import { Inject, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { InjectQueue, Processor, WorkerHost } from '@nestjs/bullmq';
import { Queue } from 'bullmq';
import { APP_CONFIG, AppConfig } from '@app/core';
import { GSC_SYNC_DUE_JOB, GSC_SYNC_JOB_OPTIONS, GSC_SYNC_QUEUE } from './gsc-sync.queue';
import { GscSyncRunResult, GscSyncService } from './gsc-sync.service';
import { SchedulerUpsert } from '../scheduler-upsert';

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
  private readonly scheduler = new SchedulerUpsert(
    this.logger,
    'Search Console sync',
    () =>
      this.queue
        .upsertJobScheduler(
          GSC_SYNC_DUE_JOB,
          { every: this.config.gscSync.tickSeconds * 1000 },
          { name: GSC_SYNC_DUE_JOB, data: {}, opts: GSC_SYNC_JOB_OPTIONS },
        )
        .then(() => undefined),
    () =>
      this.logger.log(`Search Console sync scheduled: every ${this.config.gscSync.tickSeconds} s`),
  );

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
      if (!this.scheduler.isStopped)
        this.logger.error({ err }, 'Search Console sync worker stopped');
    });
    this.scheduler.start();
  }

  onModuleDestroy(): void {
    this.scheduler.stop();
  }

  process(): Promise<GscSyncRunResult> {
    return this.sync.runDue();
  }
}
