import { Module } from '@nestjs/common';
import { CoreModule } from '@app/core';
import { RequestDatabaseModule } from '@app/database';
import { BillingModule } from '@app/billing';
import { AccountsModule } from '@app/accounts';
import { GatewayModule } from '@app/gateway';
import { LoggingModule } from '@app/logging';
import { HealthModule } from './health/health.module';
import { HomeModule } from './home/home.module';
import { UsageModule } from './usage/usage.module';
import { UsageAlertsService } from './usage/usage-alerts.service';
import { AdminModule } from './admin/admin.module';
import { SiteAuditApiModule } from './site-audit/site-audit.module';
import { BacklinksModule } from './backlinks/backlinks.module';
import { KeywordResearchModule } from './keyword-research/keyword-research.module';
import { RankModule } from './rank/rank.module';
import { ProviderSpendModule } from './provider-spend/provider-spend.module';
import { RankPostbackModule } from './rank-postback/rank-postback.module';
import { GscModule } from './gsc/gsc.module';
import { GscConnectModule } from './gsc-connect/gsc-connect.module';
import { AiVisibilityModule } from './ai-visibility/ai-visibility.module';
import { AccountAreaModule } from './account-area/account-area.module';
import { PagesModule } from './pages/pages.module';
import { McpModule } from './mcp/mcp.module';
import { OAuthModule } from './oauth/oauth.module';
import { OpsModule } from './ops/ops.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { RedisMemoryPolicyWatch } from '@app/redis';

/** Public and admin HTTP API. Resource modules are listed last. */
@Module({
  imports: [
    CoreModule,
    LoggingModule,
    RequestDatabaseModule,
    BillingModule,
    AccountsModule,
    GatewayModule.register({
      usageAlerts: { imports: [UsageModule], hook: UsageAlertsService },
    }),
    HealthModule,
    HomeModule,
    AdminModule,
    OpsModule,
    UsageModule,
    SiteAuditApiModule,
    BacklinksModule,
    KeywordResearchModule,
    RankModule,
    ProviderSpendModule,
    RankPostbackModule,
    GscModule,
    GscConnectModule,
    AiVisibilityModule,
    AccountAreaModule,
    WebhooksModule,
    PagesModule,
    McpModule,
    OAuthModule,
  ],
  // Redis's maxmemory-policy: refused at start-up in production unless noeviction, then
  // re-read every minute (docs/reliability.md, "Redis memory policy").
  providers: [RedisMemoryPolicyWatch],
})
export class ApiModule {}
