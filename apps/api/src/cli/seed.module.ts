import { Module } from '@nestjs/common';
import { CoreModule } from '@app/core';
import { DatabaseModule } from '@app/database';
import { BillingModule } from '@app/billing';
import { AccountsModule } from '@app/accounts';
import { SiteAuditModule } from '@app/site-audit';
import { RankModule } from '../rank/rank.module';
import { GscModule } from '../gsc/gsc.module';
import { AiVisibilityModule } from '../ai-visibility/ai-visibility.module';

/**
 * What the demo seed needs: connections, the account services and the your-data modules
 * whose repositories write the demo data, and site audits (the demo audit the job sample
 * names). No HTTP server is started.
 */
@Module({
  imports: [
    CoreModule,
    DatabaseModule,
    BillingModule,
    AccountsModule,
    RankModule,
    GscModule,
    AiVisibilityModule,
    SiteAuditModule,
  ],
})
export class SeedModule {}
