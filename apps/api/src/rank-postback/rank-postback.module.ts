import { Module } from '@nestjs/common';
import { RankChecksRepository, SerpTasksRepository } from '@app/database';
import { PostbackStore } from './postback-store';
import { RankPostbackController } from './rank-postback.controller';
import { RankPostbackService } from './rank-postback.service';

/**
 * The receiver of rank-collection postbacks (docs/rank-collection.md, "Postbacks"): the
 * provider POSTs each finished SERP task here, and its check is stored through collect's
 * store path (SerpTasksRepository, RankChecksRepository).
 */
@Module({
  controllers: [RankPostbackController],
  providers: [RankChecksRepository, SerpTasksRepository, PostbackStore, RankPostbackService],
})
export class RankPostbackModule {}
