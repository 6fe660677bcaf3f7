import { z } from 'zod';
import { named, recordTimestampSchema, successEnvelope } from '@app/gateway';

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

/** data of a complete site-audit job (spec "Job record"). */
const SiteAuditResultSchema = named(
  'SiteAuditResult',
  z.object({
    audit_id: z.string(),
    domain: z.string(),
    pages_crawled: z.int(),
    total_score: z.number().meta({ description: 'Technical SEO score, 0-100' }),
    geo_score: z.number().meta({ description: 'Readiness for AI answers (GEO), 0-100' }),
    issues: z.object({ critical: z.int(), warning: z.int(), total: z.int() }),
    report_url: z.string().meta({ format: 'uri', description: 'The HTML report' }),
  }),
);

/** data of GET /api/v1/jobs/{job_id}. */
const JobRecordSchema = named(
  'JobRecord',
  z.object({
    job_id: z.string(),
    endpoint: z.string().meta({ description: 'The originating endpoint', example: 'site-audit' }),
    status: z.enum(['queued', 'running', 'complete', 'failed']),
    progress: z.int().min(0).max(100),
    created_at: recordTimestampSchema,
    updated_at: recordTimestampSchema,
    completed_at: recordTimestampSchema
      .nullable()
      .meta({ description: 'When it became complete or failed; null before' }),
    data: SiteAuditResultSchema.optional().meta({ description: 'Present when status is complete' }),
    error: z
      .object({
        code: z.string().meta({
          description:
            'Why it failed, a stable code such as UNREACHABLE, PRIVATE_ADDRESS, INVALID_URL, TIMEOUT, DEADLINE_EXCEEDED, STALLED, LOST, ENQUEUE_FAILED or INTERNAL_ERROR',
          example: 'UNREACHABLE',
        }),
        message: z.string(),
      })
      .optional()
      .meta({ description: 'Present when status is failed' }),
  }),
);

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
