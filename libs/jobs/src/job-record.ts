import { recordTimestamp } from '@app/core';
import type { JobStatus } from '@app/database';

/** A job row as the repository reads it. */
export interface JobRow {
  id: string;
  account_id: number;
  endpoint: string;
  status: JobStatus;
  progress: number;
  params: Record<string, unknown>;
  data: Record<string, unknown> | null;
  error: JobError | null;
  attempts: number;
  quota_period_start: string | null;
  created_at: Date;
  updated_at: Date;
  started_at: Date | null;
  completed_at: Date | null;
  deadline_at: Date;
}

/** Why a job failed: a stable machine-readable code and a human message. */
export interface JobError {
  code: string;
  message: string;
}

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
export function reportUrl(publicBaseUrl: string, auditId: string): string {
  return `${publicBaseUrl}/reports/audits/${auditId}`;
}

/**
 * The one mapping from a job row to the spec's job record: record timestamps, completed_at
 * null until terminal, data only when complete (with report_url), error only when failed.
 */
export function toJobRecord(row: JobRow, publicBaseUrl: string): JobRecord {
  const record: JobRecord = {
    job_id: row.id,
    endpoint: row.endpoint,
    status: row.status,
    progress: row.status === 'complete' ? 100 : Math.max(0, Math.min(100, row.progress)),
    created_at: recordTimestamp(row.created_at),
    updated_at: recordTimestamp(row.updated_at),
    completed_at:
      row.status === 'complete' || row.status === 'failed'
        ? recordTimestamp(row.completed_at)
        : null,
  };
  if (row.status === 'complete' && row.data) {
    const data = { ...row.data };
    if (typeof data.audit_id === 'string')
      data.report_url = reportUrl(publicBaseUrl, data.audit_id);
    record.data = data;
  }
  if (row.status === 'failed') {
    record.error = {
      code: row.error?.code ?? 'INTERNAL_ERROR',
      message: row.error?.message ?? 'The job failed.',
    };
  }
  return record;
}
