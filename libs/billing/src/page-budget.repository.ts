import { Injectable } from '@nestjs/common';
import { SiteAuditPageBudgetEntity, Sql, SqlScope, statementTime } from '@app/database';

/** A transaction (or the pool) the page-budget statements run on; services only pass it along. */
export type BudgetDb = SqlScope;

/** A ledger row inside the rolling window, as the reset-time rule reads it. */
type BudgetWindowRow = Pick<SiteAuditPageBudgetEntity, 'createdAt' | 'pages'>;

/**
 * The rolling page-budget ledger (`site_audit_page_budget`, one row per site-audit job) and
 * the account lock that serializes reservations against it. Methods that take `db` run on the
 * given transaction (default: their own statement).
 */
@Injectable()
export class PageBudgetRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * Locks the account row FOR UPDATE until the transaction ends: concurrent reservations of
   * the same account queue up here. False when the account does not exist.
   */
  async lockAccount(accountId: number, tx: SqlScope): Promise<boolean> {
    const locked = await tx.rows(`SELECT id FROM accounts WHERE id = $1 FOR UPDATE`, [accountId]);
    return locked.length > 0;
  }

  /**
   * Pages counted against the budget in ledger rows created in the `windowDays` before the
   * statement's time (PostgreSQL's `now()`; `at` only in tests, see statement-time.ts).
   */
  async used(
    accountId: number,
    windowDays: number,
    at: Date | null,
    db: SqlScope = this.sql,
  ): Promise<number> {
    const row = await db.one<{ used: number }>(
      `SELECT COALESCE(SUM(pages), 0)::int AS used FROM site_audit_page_budget
       WHERE account_id = $1 AND created_at > ${statementTime('$3')} - make_interval(days => $2)`,
      [accountId, windowDays, at],
    );
    return row?.used ?? 0;
  }

  /** Ledger rows inside the same window that still count pages, oldest first. */
  windowRows(
    accountId: number,
    windowDays: number,
    at: Date | null,
    db: SqlScope = this.sql,
  ): Promise<BudgetWindowRow[]> {
    return db.rows<BudgetWindowRow>(
      `SELECT created_at AS "createdAt", pages FROM site_audit_page_budget
       WHERE account_id = $1 AND created_at > ${statementTime('$3')} - make_interval(days => $2)
         AND pages > 0
       ORDER BY created_at`,
      [accountId, windowDays, at],
    );
  }

  /**
   * The job's ledger row: `pages` reserved now, reconciled when the job ends. Stamped with
   * the statement's time (PostgreSQL's), the clock its window is measured with.
   */
  async reserve(
    jobId: string,
    accountId: number,
    pages: number,
    at: Date | null,
    db: SqlScope = this.sql,
  ): Promise<void> {
    await db.run(
      `INSERT INTO site_audit_page_budget (job_id, account_id, pages_reserved, pages, created_at)
       VALUES ($1, $2, $3, $3, ${statementTime('$4')})`,
      [jobId, accountId, pages, at],
    );
  }

  /** The job's ledger row drops to `pages` (never rises above what was reserved). */
  async reconcile(jobId: string, pages: number, now: Date, db: SqlScope = this.sql): Promise<void> {
    await db.run(
      `UPDATE site_audit_page_budget SET pages = LEAST(pages, $2), reconciled_at = $3 WHERE job_id = $1`,
      [jobId, pages, now],
    );
  }
}
