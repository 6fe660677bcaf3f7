import { GscConnectRepository } from '../gsc-connect/gsc-connect.repository';
import { Module } from '@nestjs/common';
import { AccountsModule } from '@app/accounts';
import { BillingModule } from '@app/billing';
import { SiteAuditModule } from '@app/site-audit';
import { AdminRoutesModule } from '../admin-routes/admin-routes.module';
import { SessionModule } from '../session/session.module';
import { RankModule } from '../rank/rank.module';
import { AiVisibilityModule } from '../ai-visibility/ai-visibility.module';
import { AccountUsageController } from './account-usage.controller';
import { AdminUsageController } from './admin-usage.controller';
import { UsageController } from './usage.controller';
import { UsageService } from './usage.service';
import { UsageAlertsRepository } from './usage-alerts.repository';
import { UsageAlertThresholds } from './usage-alert-thresholds';
import { UsageAlertsService } from './usage-alerts.service';

/**
 * Usage: GET /api/v1/usage; the signed-in account's usage, usage history and alert settings
 * (/account/v1/usage, /usage/history, /alerts); an account's usage history for operators
 * (/admin/v1/accounts/:id/usage/history); and what the account and admin pages use: the
 * usage figures, the usage history (libs/billing) and the usage alerts. ApiModule gives
 * UsageAlertsService to the metering guard explicitly (GatewayModule.register).
 */
@Module({
  imports: [
    AccountsModule,
    BillingModule,
    SiteAuditModule,
    SessionModule,
    AdminRoutesModule,
    RankModule,
    AiVisibilityModule,
  ],
  controllers: [UsageController, AccountUsageController, AdminUsageController],
  providers: [
    UsageService,
    UsageAlertsRepository,
    UsageAlertThresholds,
    UsageAlertsService,
    GscConnectRepository,
  ],
  exports: [UsageService, UsageAlertsService, BillingModule],
})
export class UsageModule {}
