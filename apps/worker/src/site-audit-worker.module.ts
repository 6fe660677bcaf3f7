import { Module } from '@nestjs/common';
import { JobsModule } from '@app/jobs';
import { AuditSweeperService } from './audit-sweeper.service';
import { SiteAuditProcessor } from './site-audit.processor';

/** The site-audit processor and the sweeper. Needs DatabaseModule and BillingModule. */
@Module({
  imports: [JobsModule],
  providers: [SiteAuditProcessor, AuditSweeperService],
  exports: [AuditSweeperService],
})
export class SiteAuditWorkerModule {}
