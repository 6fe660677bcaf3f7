import { Module } from '@nestjs/common';
import { AccountsModule } from '@app/accounts';
import { BillingModule } from '@app/billing';
import { SiteAuditModule } from '@app/site-audit';
import { OAuthModule } from '../oauth/oauth.module';
import { UsageModule } from '../usage/usage.module';
import { AdminAccountsController } from './admin-accounts.controller';
import { AdminRoutesModule } from '../admin-routes/admin-routes.module';
import { AdminAccountsService } from './admin-accounts.service';
import { AdminUsersController } from './admin-users.controller';

/** Internal operations under /admin/v1 (docs/api.md, "Admin API"). */
@Module({
  // UsageModule: the account read's usage (UsageService.usedBy); imported here, not only
  // through ApiModule, so that a context without ApiModule (the demo seed) resolves it.
  imports: [
    AccountsModule,
    BillingModule,
    SiteAuditModule,
    OAuthModule,
    UsageModule,
    AdminRoutesModule,
  ],
  controllers: [AdminAccountsController, AdminUsersController],
  providers: [AdminAccountsService],
})
export class AdminModule {}
