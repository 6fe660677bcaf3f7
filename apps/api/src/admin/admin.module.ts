import { Module } from '@nestjs/common';
import { AccountsModule } from '@app/accounts';
import { BillingModule } from '@app/billing';
import { SiteAuditModule } from '@app/site-audit';
import { OAuthModule } from '../oauth/oauth.module';
import { UsageModule } from '../usage/usage.module';
import { AdminAccountsController } from './admin-accounts.controller';
import { AdminAccountsService } from './admin-accounts.service';
import { AdminGuard } from './admin.guard';
import { AdminUsersController } from './admin-users.controller';
import { AdminUsageController } from './admin-usage.controller';

/** Internal operations under /admin/v1 (see docs/admin-api.md in shared docs). */
@Module({
  // UsageModule: the account read's usage (UsageService.usedBy); imported here, not only
  // through ApiModule, so that a context without ApiModule (the demo seed) resolves it.
  imports: [AccountsModule, BillingModule, SiteAuditModule, OAuthModule, UsageModule],
  controllers: [AdminAccountsController, AdminUsersController, AdminUsageController],
  providers: [AdminGuard, AdminAccountsService],
  exports: [AdminGuard],
})
export class AdminModule {}
