import { Inject, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { InjectQueue, Processor, WorkerHost } from '@nestjs/bullmq';
import { Queue } from 'bullmq';
import { APP_CONFIG, AppConfig } from '@app/core';
import {
  AI_SCANS_DUE_JOB,
  AI_SCANS_JOB_OPTIONS,
  AI_SCANS_QUEUE,
} from './ai-visibility-scans.queue';
import { AiScanRunResult, AiVisibilityScansService } from './ai-visibility-scans.service';
import { SchedulerUpsert } from '../scheduler-upsert';

/**
 * Runs the AI-visibility scans on a BullMQ job scheduler: `scan-due` every
 * AI_VISIBILITY_SCAN_TICK_SECONDS (a project is due by its own `next_scan_at`: at once when
 * created, then by its frequency, or after AI_VISIBILITY_SCAN_INTERVAL_SECONDS when prompts
 * failed). Every worker upserts the same scheduler at start (idempotent), in the background
 * and retried while Redis refuses it (SchedulerUpsert). With AI_VISIBILITY_SCANS_ENABLED=false
 * the worker neither schedules nor takes scan jobs.
 */
@Processor(AI_SCANS_QUEUE, { concurrency: 1, autorun: false })
export class AiVisibilityScansProcessor
  extends WorkerHost
  implements OnApplicationBootstrap, OnModuleDestroy
{
  private readonly logger = new Logger(AiVisibilityScansProcessor.name);
  private readonly scheduler = new SchedulerUpsert(
    this.logger,
    'AI-visibility scans',
    () =>
      this.queue
        .upsertJobScheduler(
          AI_SCANS_DUE_JOB,
          { every: this.config.aiVisibilityScans.tickSeconds * 1000 },
          { name: AI_SCANS_DUE_JOB, data: {}, opts: AI_SCANS_JOB_OPTIONS },
        )
        .then(() => undefined),
    () =>
      this.logger.log(
        `AI-visibility scans scheduled: every ${this.config.aiVisibilityScans.tickSeconds} s`,
      ),
  );

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectQueue(AI_SCANS_QUEUE) private readonly queue: Queue,
    private readonly scans: AiVisibilityScansService,
  ) {
    super();
  }

  onApplicationBootstrap(): void {
    if (!this.config.aiVisibilityScans.enabled) {
      this.logger.log('AI-visibility scans are off (AI_VISIBILITY_SCANS_ENABLED=false)');
      return;
    }
    this.worker.run().catch((err: unknown) => {
      if (!this.scheduler.isStopped)
        this.logger.error({ err }, 'AI-visibility scans worker stopped');
    });
    this.scheduler.start();
  }

  onModuleDestroy(): void {
    this.scheduler.stop();
  }

  process(): Promise<AiScanRunResult> {
    return this.scans.runDue();
  }
}
