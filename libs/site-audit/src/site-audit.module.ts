import { Module } from '@nestjs/common';
import { BullModule } from '@nestjs/bullmq';
import { APP_CONFIG, AppConfig } from '@app/core';
import { AccountsModule } from '@app/accounts';
import { BillingModule } from '@app/billing';
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
import { WebhookDeliveriesService } from './webhooks/webhook-deliveries.service';
import { WebhookSecretsService } from './webhooks/webhook-secrets.service';
import { WEBHOOKS_QUEUE, WEBHOOK_JOB_OPTIONS, WebhooksQueue } from './webhooks/webhooks.queue';
import { WebhooksRepository } from './webhooks/webhooks.repository';

/**
 * Site audits, shared by the API (starts audits, serves job records and report pages) and the
 * worker (runs them; it also provides AuditSweeperService and WebhookSweeperService): the
 * BullMQ connection, the site-audit and webhooks queues,
 * job records, the page budget, stored audits. Needs the global CoreModule and DatabaseModule.
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
    BullModule.registerQueue({ name: WEBHOOKS_QUEUE, defaultJobOptions: WEBHOOK_JOB_OPTIONS }),
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
    WebhooksRepository,
    WebhooksQueue,
    WebhookSecretsService,
    WebhookDeliveriesService,
  ],
  exports: [
    SiteAuditQueue,
    SiteAuditJobsService,
    SiteAuditService,
    AuditReportService,
    WebhookSecretsService,
    WebhookDeliveriesService,
  ],
})
export class SiteAuditModule {}
