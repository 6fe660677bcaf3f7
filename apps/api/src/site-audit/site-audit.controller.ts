import { Body, Controller, HttpCode, Inject, Post, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { APP_CONFIG, AppConfig, TopLevelBody } from '@app/core';
import { AuthContext } from '@app/accounts';
import { CurrentAuth, Endpoint, RequestId } from '@app/gateway';
import { StartAuditService } from '@app/site-audit';
import { SiteAuditRequestDto } from './site-audit.dto';
import { SiteAuditAcceptedSchema } from './site-audit.schema';

@ApiTags('site-audit')
@Controller('api/v1/site-audit')
export class SiteAuditController {
  constructor(
    private readonly audits: StartAuditService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post()
  @HttpCode(202)
  @Endpoint({
    operationId: 'startSiteAudit',
    summary: 'Start an asynchronous site audit',
    description:
      'Responds 202 with job_id, status "queued" and poll (the job URL). meta.max_pages is the page limit ' +
      'applied after plan and rolling-budget caps. 429 QUOTA_EXCEEDED when the monthly crawl count or the ' +
      'rolling page budget is used up (meta.quota says which). Optional webhook_url: a signed POST of the ' +
      'final job record when the job completes or fails (422 VALIDATION_ERROR for a non-https URL or a ' +
      'private, loopback or link-local address).',
    group: 'research',
    answer: SiteAuditAcceptedSchema,
    status: 202,
    answerDescription:
      'Accepted: job_id, status and poll at the top level (the Location header is poll)',
    errors: ['wrongContentType', 'validation', 'auditQuota'],
    cost:
      'Research call: one API call, one crawl of the monthly crawl count and up to meta.max_pages ' +
      'pages of the rolling 30-day page budget (429 QUOTA_EXCEEDED when either is used up). A ' +
      'crawl that fails on our side is given back.',
    sample: {
      body: { url: 'https://example.com/', max_pages: 50, depth: 3 },
      typescript: [
        'const job = await client.startSiteAudit({',
        "  url: 'https://example.com/',",
        '  max_pages: 50,',
        '  depth: 3,',
        '});',
        'console.log(job.job_id, job.poll);',
        '// later: const record = await client.waitForJob(job.job_id);',
      ].join('\n'),
      pythonPrint: 'answer["job_id"], answer["poll"]',
    },
    client: 'startSiteAudit',
    mcp: 'start_site_audit',
  })
  async start(
    @CurrentAuth() auth: AuthContext,
    @Body() body: SiteAuditRequestDto,
    @RequestId() requestId: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<TopLevelBody> {
    const accepted = await this.audits.start(auth, body, requestId);
    const poll = `${this.config.publicBaseUrl}/api/v1/jobs/${accepted.jobId}`;
    res.setHeader('Location', poll);
    return new TopLevelBody(
      { job_id: accepted.jobId, status: 'queued', poll },
      { max_pages: accepted.maxPages },
    );
  }
}
