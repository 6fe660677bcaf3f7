import { Controller, Get, Injectable, Param, PipeTransform, Query, Req } from '@nestjs/common';
import { ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiError, withMeta } from '@app/core';
import { AuthContext } from '@app/accounts';
import { ApiRequest, CurrentAuth, Endpoint } from '@app/gateway';
import { JobRecord, JobLifecycleService, isJobId } from '@app/site-audit';
import { JobListQueryDto, JobQueryDto } from './jobs.dto';
import { JobLongPollService } from './job-long-poll.service';
import { JobAnswerSchema, JobListAnswerSchema } from './site-audit.schema';

/** Path job ids: anything that is not a well-formed job id cannot exist (404). */
@Injectable()
class JobIdPipe implements PipeTransform<unknown, string> {
  transform(value: unknown): string {
    if (isJobId(value)) return value;
    throw ApiError.notFound('Job');
  }
}

@ApiTags('jobs')
@Controller('api/v1/jobs')
export class JobsController {
  constructor(
    private readonly longPoll: JobLongPollService,
    private readonly jobs: JobLifecycleService,
  ) {}

  @Get()
  @Endpoint({
    operationId: 'listJobs',
    summary: "The account's jobs (site audits), newest first: find an audit again",
    description:
      'Extension of the API specification. Lists the job records of the account, newest first, ' +
      'optionally only those of one status, one page at a time (`limit`, `offset`; `meta.total` ' +
      'counts all that match). Each record is the one GET /jobs/{job_id} answers (report_url ' +
      'inside data once complete). Use it to find an audit whose job_id was lost.',
    group: 'other',
    answer: JobListAnswerSchema,
    errors: ['validation'],
    cost: 'One API call. No feature quota, no credits.',
    sample: {
      query: { status: 'complete', limit: 20 },
      typescript: [
        "const { data, meta } = await client.jobs({ status: 'complete', limit: 20 });",
        'for (const job of data.jobs) console.log(job.job_id, job.status, job.data?.report_url);',
        'console.log(meta.total);',
      ].join('\n'),
      pythonPrint: 'answer["data"]["count"], answer["meta"]["total"]',
    },
    extension: true,
    client: 'jobs',
    mcp: 'list_jobs',
  })
  async list(@CurrentAuth() auth: AuthContext, @Query() query: JobListQueryDto) {
    const page = await this.jobs.jobRecords(auth.accountId, query);
    return withMeta(
      { jobs: page.jobs, count: page.jobs.length },
      { total: page.total, limit: query.limit, offset: query.offset },
    );
  }

  @Get(':job_id')
  @Endpoint({
    operationId: 'getJob',
    summary: 'The job record of an asynchronous job; add ?wait=60 to wait for complete or failed',
    description:
      'Returns the job record. Recommended: `GET /jobs/{job_id}?wait=60` (long-poll): the answer ' +
      'comes as soon as the job is complete or failed, or after 60 seconds with the current state; ' +
      'repeat until the status is terminal. Every request counts as one API call however long it ' +
      'waits. Without `wait` (or with wait=0) the current record is answered at once. A request ' +
      'beyond the waiting limits (per account and per server) is answered at once with the current ' +
      'state, as are waiting requests when the server shuts down.',
    group: 'other',
    answer: JobAnswerSchema,
    errors: ['notFound', 'validation'],
    cost: 'One API call however long ?wait= waits. No feature quota, no credits.',
    sample: {
      path: { job_id: 'job_3kTMd92jf8AbQx0PzLw1Rv' },
      typescript: [
        "const { data } = await client.job('job_3kTMd92jf8AbQx0PzLw1Rv');",
        'console.log(data.status, data.progress);',
        "// or wait for the end: await client.waitForJob('job_3kTMd92jf8AbQx0PzLw1Rv')",
      ].join('\n'),
      pythonPrint: 'answer["data"]["status"], answer["data"]["progress"]',
    },
    client: 'job',
    mcp: 'get_job',
  })
  @ApiParam({ name: 'job_id', example: 'job_3kTMd92jf8AbQx0PzLw1Rv' })
  async get(
    @CurrentAuth() auth: AuthContext,
    @Param('job_id', JobIdPipe) jobId: string,
    @Query() query: JobQueryDto,
    @Req() req: ApiRequest,
  ): Promise<JobRecord> {
    const record = await this.longPoll.record(jobId, auth.accountId, query.wait, (gone) =>
      req.res?.once('close', gone),
    );
    if (!record) throw ApiError.notFound('Job');
    return record;
  }
}
