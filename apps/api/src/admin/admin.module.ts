import { Module } from '@nestjs/common';
import { AccountsModule } from '@app/accounts';
import { BillingModule } from '@app/billing';
import { AdminAccountsController } from './admin-accounts.controller';
import { AdminGuard } from './admin.guard';
import { AdminUsersController } from './admin-users.controller';

/** Internal operations under /admin/v1 (see docs/admin-api.md in shared docs). */
@Module({
  imports: [AccountsModule, BillingModule],
  controllers: [AdminAccountsController, AdminUsersController],
  providers: [AdminGuard],
  exports: [AdminGuard],
})
export class AdminModule {}
