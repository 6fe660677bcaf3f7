import { Module } from '@nestjs/common';
import { AccountsModule } from '@app/accounts';
import { BillingModule } from '@app/billing';
import { SiteAuditModule } from '@app/site-audit';
import { OAuthModule } from '../oauth/oauth.module';
import { AdminAccountsController } from './admin-accounts.controller';
import { AdminGuard } from './admin.guard';
import { AdminUsersController } from './admin-users.controller';
import { AdminUsageController } from './admin-usage.controller';

/** Internal operations under /admin/v1 (see docs/admin-api.md in shared docs). */
@Module({
  imports: [AccountsModule, BillingModule, SiteAuditModule, OAuthModule],
  controllers: [AdminAccountsController, AdminUsersController, AdminUsageController],
  providers: [AdminGuard],
  exports: [AdminGuard],
})
export class AdminModule {}
