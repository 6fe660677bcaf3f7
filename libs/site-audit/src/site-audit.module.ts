import { Module } from '@nestjs/common';
import { BullModule } from '@nestjs/bullmq';
import { APP_CONFIG, AppConfig } from '@app/core';
import { AccountsModule } from '@app/accounts';
import { BillingModule } from '@app/billing';
import { WebhooksModule } from '@app/webhooks';
import { AuditReportService } from './audit-report.service';
import { AuditsRepository } from './audits.repository';
import { JobEventsPublisher } from './job-events';
import { JobsRepository } from './jobs.repository';
import { PageBudgetRepository } from './page-budget.repository';
import { SiteAuditJobsService } from './site-audit-jobs.service';
import { SiteAuditService } from './site-audit.service';
import {
  SITE_AUDIT_JOB_OPTIONS,
  SITE_AUDIT_QUEUE,
  SiteAuditQueue,
  bullRootOptions,
} from './site-audit.queue';
import { JobWebhookRecords } from './job-webhook-records';

/** The webhooks library, told how a job event finds the job's final record. */
const Webhooks = WebhooksModule.register(JobWebhookRecords, [JobsRepository]);

/**
 * Site audits, shared by the API (starts audits, serves job records and report pages) and the
 * worker (runs them; it also provides AuditSweeperService and WebhookSweeperService): the
 * BullMQ connection, the site-audit queue, job records, the page budget, stored audits; and
 * the webhooks library (libs/webhooks), registered here with the job records its job events
 * send, and exported. Needs the global CoreModule and DatabaseModule.
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
    JobsRepository,
    PageBudgetRepository,
    AuditsRepository,
    SiteAuditQueue,
    SiteAuditJobsService,
    SiteAuditService,
    AuditReportService,
    JobEventsPublisher,
  ],
  exports: [SiteAuditQueue, SiteAuditJobsService, SiteAuditService, AuditReportService, Webhooks],
})
export class SiteAuditModule {}
