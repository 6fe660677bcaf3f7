import { z } from 'zod';
import { named, successEnvelope } from '@app/gateway';
import { JobRecordSchema, SiteAuditResultSchema } from '@app/site-audit';

/** The 202 of POST /api/v1/site-audit: the spec's one answer with members at the top level. */
export const SiteAuditAcceptedSchema = named(
  'SiteAuditAccepted',
  z.object({
    success: z.literal(true),
    job_id: z.string().meta({ example: 'job_3kTMd92jf8AbQx0PzLw1Rv' }),
    status: z.literal('queued'),
    poll: z.string().meta({
      format: 'uri',
      description: 'URL of the job (GET /api/v1/jobs/{job_id}); also the Location header',
    }),
    meta: z.object({
      timestamp: z.string().meta({ format: 'date-time' }),
      request_id: z.string(),
      max_pages: z.int().meta({
        description:
          'Pages this crawl may fetch: max_pages after the per-crawl limit and the rolling page budget',
      }),
    }),
  }),
);

// The job record's shapes are libs/site-audit's (job-record.schema.ts); here they get their
// names in the OpenAPI document, in this order.
named('SiteAuditResult', SiteAuditResultSchema);
named('JobRecord', JobRecordSchema);

export const JobAnswerSchema = successEnvelope('JobAnswer', JobRecordSchema);

/** data of GET /api/v1/jobs (an extension of the spec): a page of job records, newest first. */
export const JobListAnswerSchema = successEnvelope(
  'JobListAnswer',
  z.object({
    jobs: z.array(JobRecordSchema),
    count: z.int().meta({ description: 'Records on this page' }),
  }),
  {
    total: z.int().meta({ description: 'Jobs matching the filter, all pages' }),
    limit: z.int(),
    offset: z.int(),
  },
);
