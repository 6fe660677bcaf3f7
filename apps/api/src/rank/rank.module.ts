import { Module } from '@nestjs/common';
import { RankChecksRepository } from '@app/database';
import { AdminRoutesModule } from '../admin-routes/admin-routes.module';
import { RankController } from './rank.controller';
import { RankIngestionController } from './rank-ingestion.controller';
import { RankRepository } from './rank.repository';
import { RankKeywordPages } from './rank-keyword-pages';

/**
 * Rank tracking: GET /api/v1/rank/keywords and /rank/history (your-data: counted, never
 * refused at the cap) and the admin ingestion under /admin/v1 (projects, keywords, checks).
 */
@Module({
  imports: [AdminRoutesModule],
  controllers: [RankController, RankIngestionController],
  providers: [RankRepository, RankChecksRepository, RankKeywordPages],
  exports: [RankRepository],
})
export class RankModule {}
