import { Module } from '@nestjs/common';
import { AdminRoutesModule } from '../admin-routes/admin-routes.module';
import { AiVisibilityController } from './ai-visibility.controller';
import { AiVisibilityIngestionController } from './ai-visibility-ingestion.controller';
import { AiVisibilityRepository } from './ai-visibility.repository';
import { AiVisibilityService } from './ai-visibility.service';
import { AiVisibilityIngestionRepository } from '@app/database';

/**
 * AI visibility: GET /api/v1/ai-visibility/projects and /share-of-voice (your-data: counted,
 * never refused at the cap) and the admin ingestion under /admin/v1 (projects, scans).
 */
@Module({
  imports: [AdminRoutesModule],
  controllers: [AiVisibilityController, AiVisibilityIngestionController],
  providers: [AiVisibilityRepository, AiVisibilityIngestionRepository, AiVisibilityService],
  exports: [AiVisibilityRepository, AiVisibilityIngestionRepository, AiVisibilityService],
})
export class AiVisibilityModule {}
