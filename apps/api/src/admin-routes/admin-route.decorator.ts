import { applyDecorators, Controller, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Public } from '@app/gateway';
import { AdminGuard } from './admin.guard';

const ADMIN_PREFIX = 'admin/v1';

/**
 * An admin controller: under /admin/v1, outside the customer-key pipeline (not metered,
 * not throttled per plan), guarded by the admin token (failures throttled per client IP),
 * described in the admin OpenAPI document (/admin/docs), never in the public one (/docs).
 */
export function AdminController(): ClassDecorator {
  return applyDecorators(
    Controller(ADMIN_PREFIX),
    Public(),
    UseGuards(AdminGuard),
    ApiTags('admin'),
    ApiBearerAuth('admin'),
  );
}
