import { Module } from '@nestjs/common';
import { JobsModule } from '@app/jobs';
import { SiteAuditController } from './site-audit.controller';
import { SiteAuditService } from './site-audit.service';

@Module({
  imports: [JobsModule],
  controllers: [SiteAuditController],
  providers: [SiteAuditService],
})
export class SiteAuditModule {}
