import { Module } from '@nestjs/common';
import { AdminModule } from '../admin/admin.module';
import { RankIngestionController } from './rank-ingestion.controller';
import { GscIngestionController } from './gsc-ingestion.controller';
import { AiVisibilityIngestionController } from './ai-visibility-ingestion.controller';
import { RankIngestionRepository } from './rank-ingestion.repository';
import { GscIngestionRepository } from './gsc-ingestion.repository';
import { AiVisibilityIngestionRepository } from './ai-visibility-ingestion.repository';

/** Admin ingestion of your-data (rank, GSC, AI visibility) under /admin/v1. */
@Module({
  imports: [AdminModule],
  controllers: [RankIngestionController, GscIngestionController, AiVisibilityIngestionController],
  providers: [RankIngestionRepository, GscIngestionRepository, AiVisibilityIngestionRepository],
  exports: [RankIngestionRepository, GscIngestionRepository, AiVisibilityIngestionRepository],
})
export class IngestionModule {}
