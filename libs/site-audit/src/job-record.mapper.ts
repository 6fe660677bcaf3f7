import { recordTimestamp } from '@app/core';
import type { JobEntity } from '@app/database';
import type { JobRecord, SiteAuditResult } from './job-record.schema';

/** The public URL of an audit's HTML report. */
function reportUrl(publicBaseUrl: string, auditId: string): string {
  return `${publicBaseUrl}/reports/audits/${auditId}`;
}

/**
 * A complete job's data as stored (SiteAuditJobData, written by toJobData, in a jsonb column)
 * with the report's URL added (from its audit_id, which toJobData always writes).
 */
function completeData(stored: NonNullable<JobEntity['data']>, publicBaseUrl: string) {
  const data = { ...stored } as Partial<SiteAuditResult>;
  if (typeof data.audit_id === 'string') data.report_url = reportUrl(publicBaseUrl, data.audit_id);
  return data as SiteAuditResult;
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
  if (job.status === 'complete' && job.data) record.data = completeData(job.data, publicBaseUrl);
  if (job.status === 'failed') {
    record.error = {
      code: job.error?.code ?? 'INTERNAL_ERROR',
      message: job.error?.message ?? 'The job failed.',
    };
  }
  return record;
}
