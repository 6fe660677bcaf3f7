import { Module } from '@nestjs/common';
import { CoreModule } from '@app/core';
import { DatabaseModule } from '@app/database';
import { LoggingModule } from '@app/logging';
import { AuditSweeperService, SiteAuditModule } from '@app/site-audit';
import { SiteAuditProcessor } from './site-audit.processor';

/**
 * The worker process: no public HTTP. It hosts the site-audit processor and the sweeper
 * (AuditSweeperService, from libs/site-audit, runs only here).
 */
@Module({
  imports: [CoreModule, LoggingModule, DatabaseModule, SiteAuditModule],
  providers: [SiteAuditProcessor, AuditSweeperService],
})
export class WorkerModule {}
