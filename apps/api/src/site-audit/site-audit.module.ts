import { Module } from '@nestjs/common';
import { JobEventsSubscriber, SiteAuditModule as SiteAuditLibraryModule } from '@app/site-audit';
import { AuditReportsController } from './audit-reports.controller';
import { JobLongPollService } from './job-long-poll.service';
import { JobsController } from './jobs.controller';
import { SiteAuditController } from './site-audit.controller';

/**
 * The HTTP edge of site audits: POST /api/v1/site-audit, GET /api/v1/jobs/:job_id and the
 * public HTML report page GET /reports/audits/:audit_id. The rules live in libs/site-audit.
 */
@Module({
  imports: [SiteAuditLibraryModule],
  controllers: [SiteAuditController, JobsController, AuditReportsController],
  // Long-poll of GET /jobs/:job_id?wait= (one Redis subscriber connection per API process).
  providers: [JobEventsSubscriber, JobLongPollService],
})
export class SiteAuditApiModule {}
