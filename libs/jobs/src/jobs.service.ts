import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { JobError, JobRow } from './job-record';

const COLUMNS = `id, account_id, endpoint, status, progress, params, data, error, attempts,
  quota_period_start::text AS quota_period_start, created_at, updated_at, started_at, completed_at, deadline_at`;

/**
 * (UPDATEs are wrapped as `WITH u AS (UPDATE ... RETURNING) SELECT ... FROM u` so that
 * DataSource.query returns the rows themselves: for a bare UPDATE TypeORM returns [rows, count].)
 *
 * The job-record repository shared by the API and the worker. Every transition is one
 * conditional statement, so concurrent actors (worker, retry, sweeper) cannot move a row
 * backwards: queued → running → complete | failed; queued → failed; terminal rows never change.
 */
@Injectable()
export class JobsService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The job, only when it belongs to the account (ownership checked in the query). */
  async findForAccount(jobId: string, accountId: number): Promise<JobRow | null> {
    const rows: JobRow[] = await this.db.query(
      `SELECT ${COLUMNS} FROM jobs WHERE id = $1 AND account_id = $2`,
      [jobId, accountId],
    );
    return rows[0] ?? null;
  }

  async find(jobId: string): Promise<JobRow | null> {
    const rows: JobRow[] = await this.db.query(`SELECT ${COLUMNS} FROM jobs WHERE id = $1`, [
      jobId,
    ]);
    return rows[0] ?? null;
  }

  /**
   * queued → running (also running → running when a retry or a recovered stalled job starts
   * again). Null when the job is already terminal (swept, failed, complete) or unknown.
   */
  async markRunning(jobId: string, now: Date): Promise<JobRow | null> {
    const rows: JobRow[] = await this.db.query(
      `WITH u AS (
         UPDATE jobs SET status = 'running', attempts = attempts + 1,
           started_at = COALESCE(started_at, $2), updated_at = $2
         WHERE id = $1 AND status IN ('queued', 'running')
         RETURNING *
       ) SELECT ${COLUMNS} FROM u`,
      [jobId, now],
    );
    return rows[0] ?? null;
  }

  /**
   * Raises the progress of a running job; never lowers it (GREATEST). False when the job is
   * no longer running (swept or failed elsewhere): the caller should stop working on it.
   */
  async reportProgress(jobId: string, progress: number, now: Date): Promise<boolean> {
    const pct = Math.max(0, Math.min(100, Math.floor(progress)));
    const rows: unknown[] = await this.db.query(
      `WITH u AS (
         UPDATE jobs SET progress = GREATEST(progress, $2), updated_at = $3
         WHERE id = $1 AND status = 'running' RETURNING id
       ) SELECT id FROM u`,
      [jobId, pct, now],
    );
    return rows.length > 0;
  }

  /** queued | running → failed. Null when the job was already terminal (someone else ended it). */
  async fail(jobId: string, error: JobError, now: Date): Promise<JobRow | null> {
    const rows: JobRow[] = await this.db.query(
      `WITH u AS (
         UPDATE jobs SET status = 'failed', error = $2::jsonb, completed_at = $3, updated_at = $3
         WHERE id = $1 AND status IN ('queued', 'running')
         RETURNING *
       ) SELECT ${COLUMNS} FROM u`,
      [jobId, JSON.stringify(error), now],
    );
    return rows[0] ?? null;
  }

  /** Open jobs (queued or running) whose deadline has passed, oldest first. */
  async overdue(now: Date, limit: number): Promise<JobRow[]> {
    return this.db.query(
      `SELECT ${COLUMNS} FROM jobs WHERE status IN ('queued', 'running') AND deadline_at < $1
       ORDER BY deadline_at LIMIT $2`,
      [now, limit],
    );
  }

  /** Open jobs created before `before` (candidates for the orphan check), oldest first. */
  async openCreatedBefore(before: Date, limit: number): Promise<JobRow[]> {
    return this.db.query(
      `SELECT ${COLUMNS} FROM jobs WHERE status IN ('queued', 'running') AND created_at < $1
       ORDER BY deadline_at LIMIT $2`,
      [before, limit],
    );
  }
}
