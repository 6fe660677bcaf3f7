import { Module } from '@nestjs/common';
import { BullModule } from '@nestjs/bullmq';
import { RankChecksRepository, SerpTasksRepository } from '@app/database';
import { ProvidersModule } from '@app/providers';
import { RANK_COLLECTION_JOB_OPTIONS, RANK_COLLECTION_QUEUE } from './rank-collection.queue';
import { RankCollectionProcessor } from './rank-collection.processor';
import { RankCollectionService } from './rank-collection.service';

import { KeywordMetricsRepository } from './keyword-metrics.repository';
import { KeywordMetricsService } from './keyword-metrics.service';

/**
 * Rank collection in the worker (docs/rank-collection.md): the queue and its schedulers, the
 * SERP provider, the task statements and the rank write path. The BullMQ connection is the
 * worker's root one (BullModule.forRootAsync of SiteAuditModule).
 */
@Module({
  imports: [
    ProvidersModule,
    BullModule.registerQueue({
      name: RANK_COLLECTION_QUEUE,
      defaultJobOptions: RANK_COLLECTION_JOB_OPTIONS,
    }),
  ],
  providers: [
    RankChecksRepository,
    SerpTasksRepository,
    RankCollectionService,
    KeywordMetricsRepository,
    KeywordMetricsService,
    RankCollectionProcessor,
  ],
  exports: [RankCollectionService, KeywordMetricsService],
})
export class RankCollectionModule {}
