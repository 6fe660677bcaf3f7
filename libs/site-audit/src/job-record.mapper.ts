import { recordTimestamp } from '@app/core';
import type { JobEntity, JobError, JobStatus } from '@app/database';

/** What a complete site-audit job stores as its data (report_url is added when read). */
export interface SiteAuditJobData {
  audit_id: string;
  domain: string;
  pages_crawled: number;
  total_score: number;
  geo_score: number;
  issues: { critical: number; warning: number; total: number };
}

/** The job record of GET /jobs/{job_id} (spec "Job record"). */
export interface JobRecord {
  job_id: string;
  endpoint: string;
  status: JobStatus;
  progress: number;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  data?: Record<string, unknown>;
  error?: JobError;
}

/** The public URL of an audit's HTML report. */
function reportUrl(publicBaseUrl: string, auditId: string): string {
  return `${publicBaseUrl}/reports/audits/${auditId}`;
}

/**
 * The one mapping from a job (the `jobs` table) to the spec's job record: record timestamps,
 * completed_at null until terminal, data only when complete (with report_url), error only
 * when failed.
 */
export function toJobRecord(job: JobEntity, publicBaseUrl: string): JobRecord {
  const record: JobRecord = {
    job_id: job.id,
    endpoint: job.endpoint,
    status: job.status,
    progress: job.status === 'complete' ? 100 : Math.max(0, Math.min(100, job.progress)),
    created_at: recordTimestamp(job.createdAt),
    updated_at: recordTimestamp(job.updatedAt),
    completed_at:
      job.status === 'complete' || job.status === 'failed'
        ? recordTimestamp(job.completedAt)
        : null,
  };
  if (job.status === 'complete' && job.data) {
    const data = { ...job.data };
    if (typeof data.audit_id === 'string')
      data.report_url = reportUrl(publicBaseUrl, data.audit_id);
    record.data = data;
  }
  if (job.status === 'failed') {
    record.error = {
      code: job.error?.code ?? 'INTERNAL_ERROR',
      message: job.error?.message ?? 'The job failed.',
    };
  }
  return record;
}
