import { Injectable } from '@nestjs/common';
import { FindOptionsWhere, In, LessThan } from 'typeorm';
import { JobEntity, JobError, Sql, SqlScope, SqlTx } from '@app/database';

/** A queued job as the start-audit path inserts it. */
type NewJob = Pick<
  JobEntity,
  | 'id'
  | 'accountId'
  | 'endpoint'
  | 'params'
  | 'quotaPeriodStart'
  | 'requestId'
  | 'createdAt'
  | 'deadlineAt'
> &
  Partial<Pick<JobEntity, 'webhookUrl'>>;

/** What settling a failed job needs from its row. */
interface FailedJob {
  accountId: number;
  quotaPeriodStart: string | null;
  createdAt: Date;
}

/** The transaction `transaction` hands to its work; services only pass it along. */
export type JobsTx = SqlTx;

const OPEN: JobEntity['status'][] = ['queued', 'running'];

/**
 * The `jobs` table. Reads and the insert go through TypeORM's repository of JobEntity; every
 * state transition is one conditional statement, so concurrent actors (worker, retry,
 * sweeper) cannot move a row backwards: queued → running → complete | failed;
 * queued → failed; terminal rows never change. Methods that take `db` run on the given
 * transaction (default: their own statement); `tx` ones only run inside one.
 */
@Injectable()
export class JobRecordsRepository {
  constructor(private readonly sql: Sql) {}

  /** Runs `work` in one transaction; pass its `tx` to the statements that belong together. */
  transaction<T>(work: (tx: SqlTx) => Promise<T>): Promise<T> {
    return this.sql.transaction(work);
  }

  async insertQueued(job: NewJob, db: SqlScope = this.sql): Promise<void> {
    await db.repository(JobEntity).insert({
      ...job,
      status: 'queued',
      progress: 0,
      attempts: 0,
      updatedAt: job.createdAt,
    });
  }

  /** The job, only when it belongs to the account (ownership checked in the query). */
  findForAccount(jobId: string, accountId: number): Promise<JobEntity | null> {
    return this.sql.repository(JobEntity).findOneBy({ id: jobId, accountId });
  }

  /**
   * The account's jobs, newest first (created_at, then id, descending; index jobs_account_idx),
   * optionally of one status, one page of them, with the count of all that match.
   */
  async listForAccount(
    accountId: number,
    status: JobEntity['status'] | undefined,
    limit: number,
    offset: number,
  ): Promise<{ jobs: JobEntity[]; total: number }> {
    const [jobs, total] = await this.sql.repository(JobEntity).findAndCount({
      where: { accountId, ...(status ? { status } : {}) },
      order: { createdAt: 'DESC', id: 'DESC' },
      take: limit,
      skip: offset,
    });
    return { jobs, total };
  }

  /**
   * queued → running (also running → running when a retry or a recovered stalled job starts
   * again). Null when the job is already terminal (swept, failed, complete) or unknown. The
   * row is read back in the same transaction, under the lock the UPDATE took.
   */
  markRunning(jobId: string, now: Date): Promise<JobEntity | null> {
    return this.sql.transaction(async (tx) => {
      const moved = await tx.rows(
        `UPDATE jobs SET status = 'running', attempts = attempts + 1,
           started_at = COALESCE(started_at, $2), updated_at = $2
         WHERE id = $1 AND status IN ('queued', 'running')
         RETURNING id`,
        [jobId, now],
      );
      return moved.length ? tx.repository(JobEntity).findOneBy({ id: jobId }) : null;
    });
  }

  /**
   * Raises the progress of a running job; never lowers it (GREATEST). False when the job is
   * no longer running (swept or failed elsewhere): the caller should stop working on it.
   */
  async reportProgress(jobId: string, progress: number, now: Date): Promise<boolean> {
    const pct = Math.max(0, Math.min(100, Math.floor(progress)));
    const moved = await this.sql.rows(
      `UPDATE jobs SET progress = GREATEST(progress, $2), updated_at = $3
       WHERE id = $1 AND status = 'running' RETURNING id`,
      [jobId, pct, now],
    );
    return moved.length > 0;
  }

  /**
   * running → complete with its data, on the transaction that stores the audit: the job's
   * creation time; null when the job is no longer running.
   */
  async complete(tx: SqlScope, jobId: string, data: object, now: Date): Promise<Date | null> {
    const moved = await tx.one<{ createdAt: Date }>(
      `UPDATE jobs SET status = 'complete', progress = 100, data = $2::jsonb, completed_at = $3, updated_at = $3
       WHERE id = $1 AND status = 'running' RETURNING created_at AS "createdAt"`,
      [jobId, JSON.stringify(data), now],
    );
    return moved?.createdAt ?? null;
  }

  /**
   * queued | running → failed, on the transaction that settles the page budget. Null when the
   * job was already terminal (someone else ended it).
   */
  async fail(tx: SqlScope, jobId: string, error: JobError, now: Date): Promise<FailedJob | null> {
    const failed = await tx.one<FailedJob>(
      `UPDATE jobs SET status = 'failed', error = $2::jsonb, completed_at = $3, updated_at = $3
       WHERE id = $1 AND status IN ('queued', 'running')
       RETURNING account_id AS "accountId", quota_period_start::text AS "quotaPeriodStart",
                 created_at AS "createdAt"`,
      [jobId, JSON.stringify(error), now],
    );
    return failed ?? null;
  }

  /** Open jobs (queued or running) whose deadline has passed, oldest first. */
  overdue(now: Date, limit: number): Promise<JobEntity[]> {
    return this.open({ deadlineAt: LessThan(now) }, limit);
  }

  /** Open jobs created before `before` (candidates for the orphan check), oldest first. */
  openCreatedBefore(before: Date, limit: number): Promise<JobEntity[]> {
    return this.open({ createdAt: LessThan(before) }, limit);
  }

  /** Open jobs (queued or running) that also match `where`, by deadline (jobs_open_idx). */
  private open(where: FindOptionsWhere<JobEntity>, limit: number): Promise<JobEntity[]> {
    return this.sql.repository(JobEntity).find({
      where: { ...where, status: In(OPEN) },
      order: { deadlineAt: 'ASC' },
      take: limit,
    });
  }
}
