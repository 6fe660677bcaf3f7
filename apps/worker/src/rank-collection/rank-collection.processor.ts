import { Inject, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { InjectQueue, Processor, WorkerHost } from '@nestjs/bullmq';
import { Job, Queue } from 'bullmq';
import { APP_CONFIG, AppConfig } from '@app/core';
import {
  RANK_COLLECT_JOB,
  RANK_COLLECTION_JOB_OPTIONS,
  RANK_COLLECTION_QUEUE,
  RANK_METRICS_JOB,
  RANK_POST_JOB,
  RankCollectionJobName,
} from './rank-collection.queue';
import { CollectRunResult, PostRunResult, RankCollectionService } from './rank-collection.service';
import { KeywordMetricsService, MetricsRunResult } from './keyword-metrics.service';
import { SchedulerUpsert } from '../scheduler-upsert';

/**
 * Runs rank collection on BullMQ's job schedulers: `post-due` and `refresh-metrics` every
 * RANK_CHECK_INTERVAL_SECONDS and `collect` every RANK_RESULTS_POLL_SECONDS (which also posts
 * keywords never checked, so a new keyword is posted within one poll). Every worker upserts
 * the same schedulers at start (idempotent), so the intervals follow the configuration and
 * one job per interval runs, on whichever worker takes it. The upsert runs in the background
 * and is retried while Redis refuses it: the worker's other queues start regardless. With
 * RANK_COLLECTION_ENABLED=false the worker neither schedules nor takes rank-collection jobs.
 */
@Processor(RANK_COLLECTION_QUEUE, { concurrency: 1, autorun: false })
export class RankCollectionProcessor
  extends WorkerHost
  implements OnApplicationBootstrap, OnModuleDestroy
{
  private readonly logger = new Logger(RankCollectionProcessor.name);
  private readonly schedulers = new SchedulerUpsert(
    this.logger,
    'Rank collection',
    () => this.upsertSchedulers(),
    () => {
      const { checkIntervalSeconds, resultsPollSeconds } = this.config.rankCollection;
      this.logger.log(
        `Rank collection scheduled: post every ${checkIntervalSeconds} s, collect every ${resultsPollSeconds} s`,
      );
    },
  );

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectQueue(RANK_COLLECTION_QUEUE) private readonly queue: Queue,
    private readonly collection: RankCollectionService,
    private readonly keywordMetrics: KeywordMetricsService,
  ) {
    super();
  }

  onApplicationBootstrap(): void {
    if (!this.config.rankCollection.enabled) {
      this.logger.log('Rank collection is off (RANK_COLLECTION_ENABLED=false)');
      return;
    }
    this.worker.run().catch((err: unknown) => {
      if (!this.schedulers.isStopped) this.logger.error({ err }, 'Rank collection worker stopped');
    });
    this.schedulers.start();
  }

  onModuleDestroy(): void {
    this.schedulers.stop();
  }

  private async upsertSchedulers(): Promise<void> {
    const { checkIntervalSeconds, resultsPollSeconds } = this.config.rankCollection;
    const opts = RANK_COLLECTION_JOB_OPTIONS;
    const every: Record<RankCollectionJobName, number> = {
      [RANK_POST_JOB]: checkIntervalSeconds * 1000,
      [RANK_COLLECT_JOB]: resultsPollSeconds * 1000,
      [RANK_METRICS_JOB]: checkIntervalSeconds * 1000,
    };
    for (const [name, ms] of Object.entries(every)) {
      if (this.schedulers.isStopped) return;
      await this.queue.upsertJobScheduler(name, { every: ms }, { name, data: {}, opts });
    }
  }

  process(
    job: Job<unknown, unknown, RankCollectionJobName>,
  ): Promise<PostRunResult | CollectRunResult | MetricsRunResult> {
    switch (job.name) {
      case RANK_POST_JOB:
        return this.collection.postDue();
      case RANK_COLLECT_JOB:
        return this.collection.postNewThenCollect();
      case RANK_METRICS_JOB:
        return this.keywordMetrics.refresh();
    }
  }
}
