import { Global, Module } from '@nestjs/common';
import { AccountsModule } from '@app/accounts';
import { BillingModule } from '@app/billing';
import { UsageAlertsHook } from '@app/gateway';
import { SiteAuditModule } from '@app/site-audit';
import { AdminRoutesModule } from '../admin-routes/admin-routes.module';
import { SessionModule } from '../session/session.module';
import { AccountUsageController } from './account-usage.controller';
import { AdminUsageController } from './admin-usage.controller';
import { UsageController } from './usage.controller';
import { UsageService } from './usage.service';
import { UsageAlertsRepository } from './usage-alerts.repository';
import { UsageAlertsService } from './usage-alerts.service';

/**
 * Usage: GET /api/v1/usage; the signed-in account's usage, usage history and alert settings
 * (/account/v1/usage, /usage/history, /alerts); an account's usage history for operators
 * (/admin/v1/accounts/:id/usage/history); and what the account and admin pages use: the
 * usage figures, the usage history (libs/billing) and the usage alerts. Global so that the metering guard (in
 * GatewayModule) finds UsageAlertsHook, which this module provides.
 */
@Global()
@Module({
  imports: [AccountsModule, BillingModule, SiteAuditModule, SessionModule, AdminRoutesModule],
  controllers: [UsageController, AccountUsageController, AdminUsageController],
  providers: [
    UsageService,
    UsageAlertsRepository,
    UsageAlertsService,
    { provide: UsageAlertsHook, useExisting: UsageAlertsService },
  ],
  exports: [UsageService, UsageAlertsService, UsageAlertsHook, BillingModule],
})
export class UsageModule {}
