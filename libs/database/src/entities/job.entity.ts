import { Column, Entity, PrimaryColumn } from 'typeorm';

export type JobStatus = 'queued' | 'running' | 'complete' | 'failed';

/** An async job as clients see it (GET /jobs/:id). Queries live in libs/jobs. */
@Entity({ name: 'jobs' })
export class JobEntity {
  @PrimaryColumn({ type: 'text' })
  id: string;

  @Column({ name: 'account_id', type: 'integer' })
  accountId: number;

  @Column({ type: 'text' })
  endpoint: string;

  @Column({ type: 'text' })
  status: JobStatus;

  @Column({ type: 'smallint' })
  progress: number;

  @Column({ type: 'jsonb' })
  params: Record<string, unknown>;

  @Column({ type: 'jsonb', nullable: true })
  data: Record<string, unknown> | null;

  @Column({ type: 'jsonb', nullable: true })
  error: { code: string; message: string } | null;

  @Column({ type: 'integer' })
  attempts: number;

  @Column({ name: 'quota_period_start', type: 'date', nullable: true })
  quotaPeriodStart: string | null;

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
}
