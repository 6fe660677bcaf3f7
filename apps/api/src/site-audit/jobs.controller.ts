import { Controller, Get, Injectable, Param, PipeTransform } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiError } from '@app/core';
import { AuthContext } from '@app/accounts';
import { CostGroup, CurrentAuth } from '@app/gateway';
import { JobRecord, SiteAuditJobsService, isJobId } from '@app/site-audit';

/** Path job ids: anything that is not a well-formed job id cannot exist (404). */
@Injectable()
export class JobIdPipe implements PipeTransform<unknown, string> {
  transform(value: unknown): string {
    if (isJobId(value)) return value;
    throw ApiError.notFound('Job');
  }
}

@ApiTags('jobs')
@CostGroup('other')
@Controller('api/v1/jobs')
export class JobsController {
  constructor(private readonly jobs: SiteAuditJobsService) {}

  @Get(':job_id')
  @ApiOperation({
    summary: 'The job record of an asynchronous job (poll every 10-15 s until complete or failed)',
  })
  @ApiParam({ name: 'job_id', example: 'job_3kTMd92jf8AbQx0PzLw1Rv' })
  async get(
    @CurrentAuth() auth: AuthContext,
    @Param('job_id', JobIdPipe) jobId: string,
  ): Promise<JobRecord> {
    const record = await this.jobs.jobRecord(jobId, auth.accountId);
    if (!record) throw ApiError.notFound('Job');
    return record;
  }
}
