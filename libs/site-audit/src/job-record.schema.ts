import { z } from 'zod';
import { recordTimestampSchema } from '@app/core';

/**
 * The job record's shape (spec "Job record"), written once: the types of job-record.mapper.ts
 * are inferred from it, and the API names it for its OpenAPI document
 * (apps/api/src/site-audit/site-audit.schema.ts, through `named`), where
 * test/foundation/openapi-answers.e2e-spec.ts holds it to real answers.
 */

/** data of a complete site-audit job (spec "Job record"). */
export const SiteAuditResultSchema = z.object({
  audit_id: z.string(),
  domain: z.string(),
  pages_crawled: z.int(),
  total_score: z.number().meta({ description: 'Technical SEO score, 0-100' }),
  geo_score: z.number().meta({ description: 'Readiness for AI answers (GEO), 0-100' }),
  issues: z.object({ critical: z.int(), warning: z.int(), total: z.int() }),
  report_url: z.string().meta({ format: 'uri', description: 'The HTML report' }),
});

/** data of GET /api/v1/jobs/{job_id}. */
export const JobRecordSchema = z.object({
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
});

/** The data of a complete site-audit job as the job record shows it. */
export type SiteAuditResult = z.infer<typeof SiteAuditResultSchema>;
/** What a complete site-audit job stores as its data (report_url is added when read). */
export type SiteAuditJobData = Omit<SiteAuditResult, 'report_url'>;
/** The job record of GET /jobs/{job_id} (spec "Job record"). */
export type JobRecord = z.infer<typeof JobRecordSchema>;
