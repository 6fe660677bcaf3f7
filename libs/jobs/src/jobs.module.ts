import { Module } from '@nestjs/common';
import { BullModule } from '@nestjs/bullmq';
import { APP_CONFIG, AppConfig } from '@app/core';
import { AuditStoreService } from './audit-store.service';
import { JobsService } from './jobs.service';
import { SITE_AUDIT_JOB_OPTIONS, SITE_AUDIT_QUEUE, bullRootOptions } from './queue';
import { SiteAuditJobsService } from './site-audit-jobs.service';

/**
 * Job records, site-audit quota settlement, the audit store, and the BullMQ connection and
 * queue, shared by the API (enqueues) and the worker (processes). Needs DatabaseModule and
 * BillingModule in the application.
 */
@Module({
  imports: [
    BullModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => bullRootOptions(config),
    }),
    BullModule.registerQueue({ name: SITE_AUDIT_QUEUE, defaultJobOptions: SITE_AUDIT_JOB_OPTIONS }),
  ],
  providers: [JobsService, SiteAuditJobsService, AuditStoreService],
  exports: [BullModule, JobsService, SiteAuditJobsService, AuditStoreService],
})
export class JobsModule {}
