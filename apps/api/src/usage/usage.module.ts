import { Global, Module } from '@nestjs/common';
import { AccountsModule } from '@app/accounts';
import { BillingModule } from '@app/billing';
import { UsageAlertsHook } from '@app/gateway';
import { SiteAuditModule } from '@app/site-audit';
import { UsageController } from './usage.controller';
import { UsageService } from './usage.service';
import { UsageAlertsRepository } from './usage-alerts.repository';
import { UsageAlertsService } from './usage-alerts.service';

/**
 * GET /usage, and what the account area's usage pages use: the usage figures, the usage
 * history (libs/billing) and the usage alerts. Global so that the metering guard (in
 * GatewayModule) finds UsageAlertsHook, which this module provides.
 */
@Global()
@Module({
  imports: [AccountsModule, BillingModule, SiteAuditModule],
  controllers: [UsageController],
  providers: [
    UsageService,
    UsageAlertsRepository,
    UsageAlertsService,
    { provide: UsageAlertsHook, useExisting: UsageAlertsService },
  ],
  exports: [UsageService, UsageAlertsService, UsageAlertsHook, BillingModule],
})
export class UsageModule {}
