import { Module } from '@nestjs/common';
import { AdminGuard } from './admin.guard';

/**
 * The admin-token guard of /admin/v1 (@AdminController), for every folder that serves admin
 * routes (admin, usage, webhooks, rank, gsc, ai-visibility).
 */
@Module({
  providers: [AdminGuard],
  exports: [AdminGuard],
})
export class AdminRoutesModule {}
