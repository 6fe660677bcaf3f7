import { Get, Inject, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { SessionContext } from '@app/accounts';
import { APP_CONFIG, AppConfig, withMeta } from '@app/core';
import { JobRecord, JobRecordsRepository, toJobRecord } from '@app/site-audit';
import { AccountAreaController } from '../session/account-area.decorator';
import { CurrentSession } from '../session/session.decorator';
import { JobListQueryDto } from '../site-audit/jobs.dto';

/** One row of GET /account/v1/site-audits: the job record and the audited URL. */
export type AccountSiteAudit = JobRecord & { url: string | null };

/**
 * The signed-in account's site audits: GET /account/v1/site-audits?status=&limit=&offset=,
 * the account-area twin of GET /api/v1/jobs (same records, same filter and paging, not
 * metered), with the URL each audit was started on. The console lists them with their
 * report links.
 */
@AccountAreaController()
export class AccountSiteAuditsController {
  constructor(
    private readonly jobs: JobRecordsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('site-audits')
  @ApiOperation({
    summary:
      'The account’s site audits (job records with the audited url), newest first; ' +
      'status, limit (1-100, default 20), offset; meta.total counts all that match',
  })
  async list(@CurrentSession() session: SessionContext, @Query() query: JobListQueryDto) {
    const page = await this.jobs.listForAccount(
      session.accountId,
      query.status,
      query.limit,
      query.offset,
    );
    const audits: AccountSiteAudit[] = page.jobs.map((job) => ({
      ...toJobRecord(job, this.config.publicBaseUrl),
      url: typeof job.params?.url === 'string' ? job.params.url : null,
    }));
    return withMeta(audits, { total: page.total, limit: query.limit, offset: query.offset });
  }
}
