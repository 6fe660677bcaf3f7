import { Module } from '@nestjs/common';
import { CoreModule } from '@app/core';
import { DatabaseModule } from '@app/database';
import { LoggingModule } from '@app/gateway';
import { BillingModule } from '@app/billing';
import { SiteAuditWorkerModule } from './site-audit-worker.module';

/** The worker process: no public HTTP, queue processors only. */
@Module({
  imports: [CoreModule, LoggingModule, DatabaseModule, BillingModule, SiteAuditWorkerModule],
})
export class WorkerModule {}
