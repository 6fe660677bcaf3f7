import { Module } from '@nestjs/common';
import {
  BillingModule,
  UsageEventsRollupService,
  UsageHistoryRepository,
  UsageHistoryRetentionService,
} from '@app/billing';
import { CoreModule } from '@app/core';
import { DatabaseModule, GscPartitionRepository, IdempotencyKeysRepository } from '@app/database';
import { LoggingModule } from '@app/logging';
import { RedisMemoryPolicyWatch } from '@app/redis';
import { OAuthClientPurgeService, OAuthClientsRepository } from '@app/oauth';
import { AuditSweeperService, SiteAuditModule } from '@app/site-audit';
import { WebhookSweeperService } from '@app/webhooks';
import { SiteAuditProcessor } from './site-audit/site-audit.processor';
import { GscMaintenanceService } from './gsc-maintenance.service';
import { IdempotencyPurgeService } from './idempotency-purge.service';
import { WorkerMetricsServer } from './metrics-server';
import { WebhookDeliveryProcessor } from './webhooks/webhook-delivery.processor';
import { UsageAlertsSweepService } from './usage-alerts-sweep.service';
import { RankCollectionModule } from './rank-collection/rank-collection.module';
import { GscSyncModule } from './gsc-sync/gsc-sync.module';

/**
 * The worker process: no public HTTP. It hosts the site-audit processor and the sweeper
 * (AuditSweeperService, from libs/site-audit, runs only here), and the webhook delivery
 * processor with its sweep (WebhookSweeperService; docs/webhooks.md), and the Search Console
 * partition maintenance and retention (GscMaintenanceService; docs/your-data.md), and the
 * purge of OAuth clients never used for an authorization (OAuthClientPurgeService;
 * docs/oauth.md), and the usage history's roll-up of the meter's events and its 13-month
 * retention (UsageEventsRollupService, UsageHistoryRetentionService; docs/usage-history.md),
 * and the purge of Idempotency-Keys past their 24 hours (IdempotencyPurgeService; docs/api.md),
 * and the sweep that fires the usage alerts the meter rows call for and that the API did not
 * record (UsageAlertsSweepService), and the Search Console sync (GscSyncModule;
 * docs/gsc-sync.md).
 */
@Module({
  imports: [
    CoreModule,
    LoggingModule,
    DatabaseModule,
    SiteAuditModule,
    BillingModule,
    RankCollectionModule,
    GscSyncModule,
  ],
  providers: [
    SiteAuditProcessor,
    WorkerMetricsServer,
    AuditSweeperService,
    WebhookDeliveryProcessor,
    WebhookSweeperService,
    GscPartitionRepository,
    GscMaintenanceService,
    OAuthClientsRepository,
    OAuthClientPurgeService,
    UsageHistoryRepository,
    UsageEventsRollupService,
    UsageHistoryRetentionService,
    RedisMemoryPolicyWatch, // refuses to start in production unless Redis is noeviction
    IdempotencyKeysRepository,
    IdempotencyPurgeService,
    UsageAlertsSweepService,
  ],
})
export class WorkerModule {}
