import { Module } from '@nestjs/common';
import { BullModule } from '@nestjs/bullmq';
import { APP_CONFIG, AppConfig } from '@app/core';
import { AccountsModule } from '@app/accounts';
import { BillingModule } from '@app/billing';
import { AuditReportService } from './audit-report.service';
import { AuditsRepository } from './audits.repository';
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

/**
 * Site audits, shared by the API (starts audits, serves job records and report pages) and the
 * worker (runs them; it also provides AuditSweeperService): the BullMQ connection and queue,
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
  ],
  providers: [
    JobsRepository,
    PageBudgetRepository,
    AuditsRepository,
    SiteAuditQueue,
    SiteAuditJobsService,
    SiteAuditService,
    AuditReportService,
  ],
  exports: [SiteAuditQueue, SiteAuditJobsService, SiteAuditService, AuditReportService],
})
export class SiteAuditModule {}
