import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { AccountEntity } from './account.entity';

export type JobStatus = 'queued' | 'running' | 'complete' | 'failed';

/** A jsonb object (members are JSON values: scalars, arrays, objects). */
type JsonObject = Record<string, string | number | boolean | null | object>;

/** Why a job failed: a stable machine-readable code and a human message. */
export interface JobError {
  code: string;
  message: string;
}

/**
 * An async job as clients see it (GET /jobs/:id). Schema: migration 1764000000000; statements
 * in libs/site-audit (JobRecordsRepository).
 */
@Entity({ name: 'jobs' })
@Check('jobs_id_check', `id ~ '^job_[0-9A-Za-z]{22}$'`)
@Check('jobs_endpoint_check', 'length(endpoint) BETWEEN 1 AND 64')
@Check('jobs_status_check', `status IN ('queued', 'running', 'complete', 'failed')`)
@Check('jobs_progress_check', 'progress BETWEEN 0 AND 100')
@Check('jobs_attempts_check', 'attempts >= 0')
@Check(
  'jobs_completed_at_iff_terminal',
  `(status IN ('complete', 'failed')) = (completed_at IS NOT NULL)`,
)
@Check('jobs_complete_has_data', `status <> 'complete' OR data IS NOT NULL`)
@Check('jobs_failed_has_error', `status <> 'failed' OR error IS NOT NULL`)
@Check('jobs_webhook_url_check', 'length(webhook_url) BETWEEN 1 AND 2048')
// An account's jobs, newest first: (account_id, created_at DESC); TypeORM cannot express DESC.
@Index('jobs_account_idx', { synchronize: false })
// The sweeper: open jobs by deadline / age.
@Index('jobs_open_idx', ['deadlineAt'], { where: `status IN ('queued', 'running')` })
export class JobEntity {
  @PrimaryColumn({ type: 'text' })
  id: string;

  @ForeignKey(() => AccountEntity, { name: 'jobs_account_id_fkey', onDelete: 'CASCADE' })
  @Column({ name: 'account_id', type: 'integer' })
  accountId: number;

  @Column({ type: 'text' })
  endpoint: string;

  @Column({ type: 'text' })
  status: JobStatus;

  @Column({ type: 'smallint', default: 0 })
  progress: number;

  @Column({ type: 'jsonb', default: {} })
  params: JsonObject;

  @Column({ type: 'jsonb', nullable: true })
  data: JsonObject | null;

  @Column({ type: 'jsonb', nullable: true })
  error: JobError | null;

  @Column({ type: 'integer', default: 0 })
  attempts: number;

  /** Calendar month (YYYY-MM-DD) of the crawl-count unit reserved for the job (for a refund). */
  @Column({ name: 'quota_period_start', type: 'date', nullable: true })
  quotaPeriodStart: string | null;

  /** The request id of the POST that created the job (support look-ups). */
  @Column({ name: 'request_id', type: 'text', nullable: true })
  requestId: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;

  @Column({ name: 'started_at', type: 'timestamptz', nullable: true })
  startedAt: Date | null;

  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true })
  completedAt: Date | null;

  @Column({ name: 'deadline_at', type: 'timestamptz' })
  deadlineAt: Date;

  /** Where the completion webhook goes (docs/webhooks.md); null: no webhook. Migration 1764400000000. */
  @Column({ name: 'webhook_url', type: 'text', nullable: true })
  webhookUrl: string | null;
}
