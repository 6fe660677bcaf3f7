import { Module } from '@nestjs/common';
import { BullModule } from '@nestjs/bullmq';
import { GscIngestionRepository, RankChecksRepository } from '@app/database';
import { GoogleModule, SandboxSearchConsoleSource } from '@app/providers';
import { GscRequestQuota } from './gsc-quota';
import { GSC_SYNC_JOB_OPTIONS, GSC_SYNC_QUEUE } from './gsc-sync.queue';
import { GscSyncProcessor } from './gsc-sync.processor';
import { GscSyncRepository } from './gsc-sync.repository';
import { GscSyncService } from './gsc-sync.service';

/**
 * The Search Console sync in the worker (docs/gsc-sync.md): its queue and scheduler, the
 * sandbox source, the request quota, the sync statements and the ingestion write path.
 * Properties on a Google connection read through the Google client GoogleModule binds to
 * SEARCH_CONSOLE_SOURCE (docs/gsc-connect.md); without GOOGLE_CLIENT_ID it is null and they
 * end their runs with `error`.
 */
@Module({
  imports: [
    GoogleModule,
    BullModule.registerQueue({ name: GSC_SYNC_QUEUE, defaultJobOptions: GSC_SYNC_JOB_OPTIONS }),
  ],
  providers: [
    GscIngestionRepository,
    RankChecksRepository,
    SandboxSearchConsoleSource,
    GscRequestQuota,
    GscSyncRepository,
    GscSyncService,
    GscSyncProcessor,
  ],
  exports: [GscSyncService],
})
export class GscSyncModule {}
