import { Injectable } from '@nestjs/common';
import { MoreThan } from 'typeorm';
import { SiteAuditPageBudgetEntity, Sql, SqlScope } from '@app/database';

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

  /** Pages counted against the budget in ledger rows created after `since`. */
  async used(accountId: number, since: Date, db: SqlScope = this.sql): Promise<number> {
    const row = await db.one<{ used: number }>(
      `SELECT COALESCE(SUM(pages), 0)::int AS used FROM site_audit_page_budget
       WHERE account_id = $1 AND created_at > $2`,
      [accountId, since],
    );
    return row?.used ?? 0;
  }

  /** Ledger rows created after `since` that still count pages, oldest first. */
  windowRows(accountId: number, since: Date, db: SqlScope = this.sql): Promise<BudgetWindowRow[]> {
    return db.repository(SiteAuditPageBudgetEntity).find({
      select: { createdAt: true, pages: true },
      where: { accountId, createdAt: MoreThan(since), pages: MoreThan(0) },
      order: { createdAt: 'ASC' },
    });
  }

  /** The job's ledger row: `pages` reserved now, reconciled when the job ends. */
  async reserve(
    jobId: string,
    accountId: number,
    pages: number,
    now: Date,
    db: SqlScope = this.sql,
  ): Promise<void> {
    await db.repository(SiteAuditPageBudgetEntity).insert({
      jobId,
      accountId,
      pagesReserved: pages,
      pages,
      createdAt: now,
    });
  }

  /** The job's ledger row drops to `pages` (never rises above what was reserved). */
  async reconcile(jobId: string, pages: number, now: Date, db: SqlScope = this.sql): Promise<void> {
    await db.run(
      `UPDATE site_audit_page_budget SET pages = LEAST(pages, $2), reconciled_at = $3 WHERE job_id = $1`,
      [jobId, pages, now],
    );
  }
}
