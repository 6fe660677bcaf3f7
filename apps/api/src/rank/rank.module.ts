import { Module } from '@nestjs/common';
import { RankChecksRepository } from '@app/database';
import { AdminRoutesModule } from '../admin-routes/admin-routes.module';
import { SessionModule } from '../session/session.module';
import { AccountRankKeywordsController } from './account-rank-keywords.controller';
import { RankController } from './rank.controller';
import { RankIngestionController } from './rank-ingestion.controller';
import { RankRepository } from './rank.repository';
import { RankKeywordPages } from './rank-keyword-pages';
import { RankKeywordsReader } from './rank-keywords-reader';

/**
 * Rank tracking: GET /api/v1/rank/keywords and /rank/history (your-data: counted, never
 * refused at the cap), its account-area twin GET /account/v1/rank/keywords (the console), and
 * the admin ingestion under /admin/v1 (projects, keywords, checks).
 */
@Module({
  imports: [AdminRoutesModule, SessionModule],
  controllers: [RankController, AccountRankKeywordsController, RankIngestionController],
  providers: [RankRepository, RankChecksRepository, RankKeywordPages, RankKeywordsReader],
  exports: [RankRepository],
})
export class RankModule {}
