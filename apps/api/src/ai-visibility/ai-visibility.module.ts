import { Module } from '@nestjs/common';
import { AdminRoutesModule } from '../admin-routes/admin-routes.module';
import { SessionModule } from '../session/session.module';
import { AiVisibilityController } from './ai-visibility.controller';
import { AiVisibilityIngestionController } from './ai-visibility-ingestion.controller';
import { AiVisibilityManagementController } from './ai-visibility-management.controller';
import { AccountAiVisibilityController } from './account-ai-visibility.controller';
import { AiVisibilityManagementService } from './ai-visibility-management.service';
import { AiVisibilityReadsService } from './ai-visibility-reads.service';
import { AiProjectsRepository } from './ai-projects.repository';
import { AiVisibilityRepository } from './ai-visibility.repository';
import { AiVisibilityService } from './ai-visibility.service';
import { AiVisibilityIngestionRepository } from '@app/database';

/**
 * AI visibility: GET /api/v1/ai-visibility/projects and /share-of-voice (your-data: counted,
 * never refused at the cap), the customer's management of projects under
 * /api/v1/ai-visibility/projects and /account/v1/ai-visibility (docs/ai-visibility-management.md,
 * with the console's scores and answers), and the admin ingestion under /admin/v1 (projects,
 * scans).
 */
@Module({
  imports: [AdminRoutesModule, SessionModule],
  controllers: [
    AiVisibilityController,
    AiVisibilityManagementController,
    AccountAiVisibilityController,
    AiVisibilityIngestionController,
  ],
  providers: [
    AiVisibilityRepository,
    AiVisibilityIngestionRepository,
    AiProjectsRepository,
    AiVisibilityService,
    AiVisibilityManagementService,
    AiVisibilityReadsService,
  ],
  exports: [
    AiVisibilityRepository,
    AiVisibilityIngestionRepository,
    AiProjectsRepository,
    AiVisibilityService,
  ],
})
export class AiVisibilityModule {}
