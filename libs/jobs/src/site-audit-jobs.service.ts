import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { FeatureQuotaService } from '@app/billing';
import { JobError } from './job-record';
import { effectiveMaxPages, pageBudgetResetsAt, pageBudgetWindowStart } from './page-budget';
import { SITE_AUDIT_ENDPOINT } from './queue';

export interface SiteAuditParams {
  url: string;
  depth: number;
  max_pages: number;
  requested_max_pages: number;
}

export interface NewSiteAuditJob {
  jobId: string;
  accountId: number;
  url: string;
  depth: number;
  requestedPages: number;
  pagesPerCrawl: number;
  rollingBudget: number;
  /** Calendar month of the crawl-count unit already reserved (for the refund). */
  quotaPeriodStart: string;
  requestId: string | null;
  now: Date;
  deadlineAt: Date;
}

export type CreateResult =
  | { ok: true; maxPages: number }
  | { ok: false; quota: 'site_audit_pages_per_crawl'; limit: number }
  | {
      ok: false;
      quota: 'site_audit_rolling_page_budget';
      limit: number;
      used: number;
      resetsAt: Date | null;
    };

/** How a failed site audit settles its quota. */
export interface FailureSettlement {
  /** Our fault (internal error, deadline, lost job): give the crawl count and all pages back. */
  refund: boolean;
  /** Pages actually fetched before the failure (kept on the budget when not refunded). */
  pagesUsed: number;
}

/**
 * Site-audit job rows together with their quota: the rolling page-budget ledger (one row per
 * job) and the monthly crawl count (FeatureQuotaService 'site_audit_crawls').
 */
@Injectable()
export class SiteAuditJobsService {
  private readonly logger = new Logger(SiteAuditJobsService.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly quotas: FeatureQuotaService,
  ) {}

  /**
   * Reserves the crawl's pages against the rolling 30-day budget and inserts the queued job
   * row, in one short transaction. The account row is locked FOR UPDATE first: concurrent
   * requests of the same account queue up there, and because READ COMMITTED takes a new
   * snapshot for every statement, the SUM that follows the lock sees every reservation
   * committed before it. (A single CTE statement would keep the snapshot taken before the
   * lock wait and let two requests spend the same pages.) Nothing else holds the lock, and
   * the transaction runs three short statements, so the wait is brief.
   */
  async createQueued(input: NewSiteAuditJob): Promise<CreateResult> {
    if (input.pagesPerCrawl < 1) {
      return { ok: false, quota: 'site_audit_pages_per_crawl', limit: input.pagesPerCrawl };
    }
    return this.db.transaction(async (m): Promise<CreateResult> => {
      const locked: unknown[] = await m.query(`SELECT id FROM accounts WHERE id = $1 FOR UPDATE`, [
        input.accountId,
      ]);
      if (!locked.length) throw new Error(`account ${input.accountId} not found`);
      const windowStart = pageBudgetWindowStart(input.now);
      const [{ used }]: Array<{ used: number }> = await m.query(
        `SELECT COALESCE(SUM(pages), 0)::int AS used FROM site_audit_page_budget
         WHERE account_id = $1 AND created_at > $2`,
        [input.accountId, windowStart],
      );
      const maxPages = effectiveMaxPages(
        input.requestedPages,
        input.pagesPerCrawl,
        input.rollingBudget,
        used,
      );
      if (maxPages < 1) {
        const rows: Array<{ created_at: Date; pages: number }> = await m.query(
          `SELECT created_at, pages FROM site_audit_page_budget
           WHERE account_id = $1 AND created_at > $2 AND pages > 0 ORDER BY created_at`,
          [input.accountId, windowStart],
        );
        return {
          ok: false,
          quota: 'site_audit_rolling_page_budget',
          limit: input.rollingBudget,
          used,
          resetsAt: pageBudgetResetsAt(rows, input.rollingBudget, used),
        };
      }
      const params: SiteAuditParams = {
        url: input.url,
        depth: input.depth,
        max_pages: maxPages,
        requested_max_pages: input.requestedPages,
      };
      await m.query(
        `INSERT INTO jobs (id, account_id, endpoint, status, progress, params, quota_period_start, request_id,
                           created_at, updated_at, deadline_at)
         VALUES ($1, $2, $3, 'queued', 0, $4::jsonb, $5::date, $6, $7, $7, $8)`,
        [
          input.jobId,
          input.accountId,
          SITE_AUDIT_ENDPOINT,
          JSON.stringify(params),
          input.quotaPeriodStart,
          input.requestId,
          input.now,
          input.deadlineAt,
        ],
      );
      await m.query(
        `INSERT INTO site_audit_page_budget (job_id, account_id, pages_reserved, pages, created_at)
         VALUES ($1, $2, $3, $3, $4)`,
        [input.jobId, input.accountId, maxPages, input.now],
      );
      return { ok: true, maxPages };
    });
  }

  /** Pages counted against the rolling budget in the 30 days before `now`. */
  async pagesUsed(accountId: number, now: Date): Promise<number> {
    const [{ used }]: Array<{ used: number }> = await this.db.query(
      `SELECT COALESCE(SUM(pages), 0)::int AS used FROM site_audit_page_budget
       WHERE account_id = $1 AND created_at > $2`,
      [accountId, pageBudgetWindowStart(now)],
    );
    return used;
  }

  /**
   * queued | running → failed, with its quota settled: the page-budget row drops to the pages
   * actually fetched (0 when refunded), in the same transaction as the state change; when it
   * was our fault the crawl count is released too. Only the actor whose UPDATE moved the row
   * settles, so a job is never refunded twice. False when the job was already terminal.
   */
  async failAudit(
    jobId: string,
    error: JobError,
    settlement: FailureSettlement,
    now: Date,
  ): Promise<boolean> {
    const pages = settlement.refund ? 0 : Math.max(0, Math.floor(settlement.pagesUsed));
    const failed = await this.db.transaction(async (m) => {
      const rows: Array<{ account_id: number; quota_period_start: string | null }> = await m.query(
        `WITH u AS (
           UPDATE jobs SET status = 'failed', error = $2::jsonb, completed_at = $3, updated_at = $3
           WHERE id = $1 AND status IN ('queued', 'running')
           RETURNING account_id, quota_period_start
         ) SELECT account_id, quota_period_start::text AS quota_period_start FROM u`,
        [jobId, JSON.stringify(error), now],
      );
      if (!rows.length) return null;
      await m.query(
        `UPDATE site_audit_page_budget SET pages = LEAST(pages, $2), reconciled_at = $3 WHERE job_id = $1`,
        [jobId, pages, now],
      );
      return rows[0];
    });
    if (!failed) return false;
    if (settlement.refund && failed.quota_period_start) {
      await this.quotas.release({
        accountId: failed.account_id,
        feature: 'site_audit_crawls',
        periodStart: failed.quota_period_start,
      });
      this.logger.log(`Job ${jobId} failed (${error.code}); crawl count and pages refunded`);
    }
    return true;
  }
}
