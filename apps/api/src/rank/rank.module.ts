import { Module } from '@nestjs/common';
import { RankChecksRepository } from '@app/database';
import { AdminRoutesModule } from '../admin-routes/admin-routes.module';
import { SessionModule } from '../session/session.module';
import { RankController } from './rank.controller';
import { RankIngestionController } from './rank-ingestion.controller';
import { RankManagementController } from './rank-management.controller';
import { AccountRankController } from './account-rank.controller';
import { RankManagementService } from './rank-management.service';
import { RankRepository } from './rank.repository';
import { RankKeywordPages } from './rank-keyword-pages';
import { RankKeywordsReader } from './rank-keywords-reader';

/**
 * Rank tracking: GET /api/v1/rank/keywords and /rank/history, the management of projects and
 * keywords under /api/v1/rank (your-data: counted, never refused at the cap) and
 * /account/v1/rank (session; docs/rank-management.md; with GET /account/v1/rank/keywords for
 * the console), and the admin ingestion under /admin/v1 (projects, keywords, checks).
 */
@Module({
  imports: [AdminRoutesModule, SessionModule],
  controllers: [
    RankController,
    RankManagementController,
    AccountRankController,
    RankIngestionController,
  ],
  providers: [
    RankRepository,
    RankChecksRepository,
    RankKeywordPages,
    RankKeywordsReader,
    RankManagementService,
  ],
  exports: [RankRepository],
})
export class RankModule {}
