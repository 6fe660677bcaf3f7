import { Module } from '@nestjs/common';
import { BullModule } from '@nestjs/bullmq';
import { AiVisibilityIngestionRepository } from '@app/database';
import { ProvidersModule } from '@app/providers';
import { AI_SCANS_JOB_OPTIONS, AI_SCANS_QUEUE } from './ai-visibility-scans.queue';
import { AiVisibilityScansProcessor } from './ai-visibility-scans.processor';
import { AiVisibilityScansRepository } from './ai-visibility-scans.repository';
import { AiVisibilityScansService } from './ai-visibility-scans.service';

/**
 * AI-visibility scans in the worker (docs/ai-visibility-scans.md): the queue and its
 * scheduler, the AI-engine provider, the scan statements and the ingestion write path.
 */
@Module({
  imports: [
    ProvidersModule,
    BullModule.registerQueue({ name: AI_SCANS_QUEUE, defaultJobOptions: AI_SCANS_JOB_OPTIONS }),
  ],
  providers: [
    AiVisibilityIngestionRepository,
    AiVisibilityScansRepository,
    AiVisibilityScansService,
    AiVisibilityScansProcessor,
  ],
  exports: [AiVisibilityScansService],
})
export class AiVisibilityScansModule {}
