import { Module } from '@nestjs/common';
import { BullModule } from '@nestjs/bullmq';
import { APP_CONFIG, AppConfig } from '@app/core';
import { AccountsModule } from '@app/accounts';
import { BillingModule } from '@app/billing';
import { WebhooksModule } from '@app/webhooks';
import { AuditReportService } from './audit-report.service';
import { AuditReportRepository } from './audit-report.repository';
import { JobEventsPublisher } from './job-events';
import { JobRecordsRepository } from './job-records.repository';
import { JobLifecycleService } from './job-lifecycle.service';
import { StartAuditService } from './start-audit.service';
import {
  SITE_AUDIT_JOB_OPTIONS,
  SITE_AUDIT_QUEUE,
  SiteAuditQueue,
  bullRootOptions,
} from './site-audit.queue';
import { JobWebhookRecords } from './job-webhook-records';

/** The webhooks library, told how a job event finds the job's final record. */
const Webhooks = WebhooksModule.register(JobWebhookRecords, [JobRecordsRepository]);

/**
 * Site audits, shared by the API (starts audits, serves job records and report pages) and the
 * worker (runs them; it also provides AuditSweeperService and WebhookSweeperService): the
 * BullMQ connection, the site-audit queue, job records, stored audits (the page budget is
 * libs/billing's); and the webhooks library (libs/webhooks), registered here with the job
 * records its job events send, and exported. Needs the global CoreModule and DatabaseModule.
 */
@Module({
  imports: [
    BillingModule,
    AccountsModule,
    BullModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => bullRootOptions(config),
    }),
    BullModule.registerQueue({ name: SITE_AUDIT_QUEUE, defaultJobOptions: SITE_AUDIT_JOB_OPTIONS }),
    Webhooks,
  ],
  providers: [
    JobRecordsRepository,
    AuditReportRepository,
    SiteAuditQueue,
    JobLifecycleService,
    StartAuditService,
    AuditReportService,
    JobEventsPublisher,
  ],
  exports: [
    SiteAuditQueue,
    JobRecordsRepository,
    JobLifecycleService,
    StartAuditService,
    AuditReportService,
    Webhooks,
  ],
})
export class SiteAuditModule {}
