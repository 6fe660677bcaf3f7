import { Injectable } from '@nestjs/common';
import { PAGE_BUDGET_WINDOW_DAYS, effectiveMaxPages, pageBudgetResetsAt } from './page-budget';
import { BudgetDb, PageBudgetRepository } from './page-budget.repository';

/** What a new crawl asks of the page limits (the plan's, in force for the account). */
export interface PageRequest {
  accountId: number;
  /** `max_pages` of the request. */
  requested: number;
  /** The plan's `site_audit_pages_per_crawl`. */
  perCrawl: number;
  /** The plan's `site_audit_rolling_page_budget`. */
  budget: number;
  /** `Clock.statementTime()`: null in production, so the window is PostgreSQL's clock. */
  at: Date | null;
}

/** How many pages a crawl may fetch, or which page limit refuses it. */
export type PageAllowance =
  | { ok: true; maxPages: number }
  | { ok: false; quota: 'site_audit_pages_per_crawl'; limit: number }
  | {
      ok: false;
      quota: 'site_audit_rolling_page_budget';
      limit: number;
      used: number;
      resetsAt: Date | null;
    };

/**
 * The rolling 30-day page budget of site-audit crawls: the account lock that serializes
 * reservations, the pages a new crawl may take, the job's ledger row (reserved, then
 * reconciled to the pages crawled), the pages used. The statements are PageBudgetRepository's,
 * one atomic statement each; the caller's transaction (`tx`) holds them together with the
 * job row.
 */
@Injectable()
export class PageBudgetService {
  constructor(private readonly budget: PageBudgetRepository) {}

  /**
   * Locks the account row FOR UPDATE until `tx` ends: concurrent reservations of the same
   * account queue up here, and because READ COMMITTED takes a new snapshot for every
   * statement, the SUM of `allowance` that follows sees every reservation committed before.
   * False when the account does not exist.
   */
  lockAccount(accountId: number, tx: BudgetDb): Promise<boolean> {
    return this.budget.lockAccount(accountId, tx);
  }

  /**
   * The pages a new crawl may fetch: the request capped by the per-crawl limit and by what
   * is left of the rolling budget (read on `tx`, after `lockAccount`). A refusal names the
   * limit, and for the budget when a page becomes free again.
   */
  async allowance(req: PageRequest, tx: BudgetDb): Promise<PageAllowance> {
    if (req.perCrawl < 1)
      return { ok: false, quota: 'site_audit_pages_per_crawl', limit: req.perCrawl };
    const window = PAGE_BUDGET_WINDOW_DAYS;
    const used = await this.budget.used(req.accountId, window, req.at, tx);
    const maxPages = effectiveMaxPages(req.requested, req.perCrawl, req.budget, used);
    if (maxPages >= 1) return { ok: true, maxPages };
    const rows = await this.budget.windowRows(req.accountId, window, req.at, tx);
    return {
      ok: false,
      quota: 'site_audit_rolling_page_budget',
      limit: req.budget,
      used,
      resetsAt: pageBudgetResetsAt(rows, req.budget, used),
    };
  }

  /** The job's ledger row: `pages` reserved now (on `tx`, after the job row is inserted). */
  reserve(
    jobId: string,
    accountId: number,
    pages: number,
    at: Date | null,
    tx: BudgetDb,
  ): Promise<void> {
    return this.budget.reserve(jobId, accountId, pages, at, tx);
  }

  /** The job's ledger row drops to `pages` as the job ends (never rises above the reservation). */
  reconcile(jobId: string, pages: number, now: Date, tx: BudgetDb): Promise<void> {
    return this.budget.reconcile(jobId, pages, now, tx);
  }

  /**
   * Pages counted against the rolling budget in the 30 days before PostgreSQL's now (`at`:
   * `Clock.statementTime()`, a test clock's time in tests).
   */
  used(accountId: number, at: Date | null): Promise<number> {
    return this.budget.used(accountId, PAGE_BUDGET_WINDOW_DAYS, at);
  }
}
