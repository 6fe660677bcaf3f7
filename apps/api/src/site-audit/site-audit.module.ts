import { Module } from '@nestjs/common';
import { SiteAuditModule as SiteAuditLibraryModule } from '@app/site-audit';
import { AuditReportsController } from './audit-reports.controller';
import { JobsController } from './jobs.controller';
import { SiteAuditController } from './site-audit.controller';

/**
 * The HTTP edge of site audits: POST /api/v1/site-audit, GET /api/v1/jobs/:job_id and the
 * public HTML report page GET /reports/audits/:audit_id. The rules live in libs/site-audit.
 */
@Module({
  imports: [SiteAuditLibraryModule],
  controllers: [SiteAuditController, JobsController, AuditReportsController],
})
export class SiteAuditApiModule {}
