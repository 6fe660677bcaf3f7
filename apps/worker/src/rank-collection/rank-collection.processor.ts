import { Inject, Logger, OnApplicationBootstrap } from '@nestjs/common';
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

/**
 * Runs rank collection on BullMQ's job schedulers: `post-due` and `refresh-metrics` every
 * RANK_CHECK_INTERVAL_SECONDS and `collect` every RANK_RESULTS_POLL_SECONDS. Every worker
 * upserts the same two schedulers at start (idempotent), so the intervals follow the
 * configuration and one job per interval runs, on whichever worker takes it. A scheduler's
 * first job runs at once, so a keyword added before a start is posted within seconds.
 */
@Processor(RANK_COLLECTION_QUEUE, { concurrency: 1 })
export class RankCollectionProcessor extends WorkerHost implements OnApplicationBootstrap {
  private readonly logger = new Logger(RankCollectionProcessor.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectQueue(RANK_COLLECTION_QUEUE) private readonly queue: Queue,
    private readonly collection: RankCollectionService,
    private readonly keywordMetrics: KeywordMetricsService,
  ) {
    super();
  }

  async onApplicationBootstrap(): Promise<void> {
    const { checkIntervalSeconds, resultsPollSeconds } = this.config.rankCollection;
    const opts = RANK_COLLECTION_JOB_OPTIONS;
    await this.queue.upsertJobScheduler(
      RANK_POST_JOB,
      { every: checkIntervalSeconds * 1000 },
      { name: RANK_POST_JOB, data: {}, opts },
    );
    await this.queue.upsertJobScheduler(
      RANK_COLLECT_JOB,
      { every: resultsPollSeconds * 1000 },
      { name: RANK_COLLECT_JOB, data: {}, opts },
    );
    await this.queue.upsertJobScheduler(
      RANK_METRICS_JOB,
      { every: checkIntervalSeconds * 1000 },
      { name: RANK_METRICS_JOB, data: {}, opts },
    );
    this.logger.log(
      `Rank collection scheduled: post every ${checkIntervalSeconds} s, collect every ${resultsPollSeconds} s`,
    );
  }

  process(
    job: Job<unknown, unknown, RankCollectionJobName>,
  ): Promise<PostRunResult | CollectRunResult | MetricsRunResult> {
    switch (job.name) {
      case RANK_POST_JOB:
        return this.collection.postDue();
      case RANK_COLLECT_JOB:
        return this.collection.collect();
      case RANK_METRICS_JOB:
        return this.keywordMetrics.refresh();
    }
  }
}
