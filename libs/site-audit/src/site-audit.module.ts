import { Module } from '@nestjs/common';
import { BullModule } from '@nestjs/bullmq';
import { APP_CONFIG, AppConfig } from '@app/core';
import { AccountsModule } from '@app/accounts';
import { BillingModule } from '@app/billing';
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
import { WebhookDeliveriesService } from './webhooks/webhook-deliveries.service';
import { WebhookSecretsService } from './webhooks/webhook-secrets.service';
import { WEBHOOKS_QUEUE, WEBHOOK_JOB_OPTIONS, WebhooksQueue } from './webhooks/webhooks.queue';
import { WebhooksRepository } from './webhooks/webhooks.repository';

/**
 * Site audits, shared by the API (starts audits, serves job records and report pages) and the
 * worker (runs them; it also provides AuditSweeperService and WebhookSweeperService): the
 * BullMQ connection, the site-audit and webhooks queues,
 * job records, stored audits (the page budget is libs/billing's). Needs the global CoreModule and DatabaseModule.
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
    JobRecordsRepository,
    AuditReportRepository,
    SiteAuditQueue,
    JobLifecycleService,
    StartAuditService,
    AuditReportService,
    JobEventsPublisher,
    WebhooksRepository,
    WebhooksQueue,
    WebhookSecretsService,
    WebhookDeliveriesService,
  ],
  exports: [
    SiteAuditQueue,
    JobRecordsRepository,
    JobLifecycleService,
    StartAuditService,
    AuditReportService,
    WebhookSecretsService,
    WebhookDeliveriesService,
  ],
})
export class SiteAuditModule {}
