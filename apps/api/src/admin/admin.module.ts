import { Module } from '@nestjs/common';
import { AdminAccountsController } from './admin-accounts.controller';
import { AdminGuard } from './admin.guard';

/** Internal operations under /admin/v1 (see docs/admin-api.md in shared docs). */
@Module({
  controllers: [AdminAccountsController],
  providers: [AdminGuard],
  exports: [AdminGuard],
})
export class AdminModule {}
