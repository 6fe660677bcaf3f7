import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig, metrics } from '@app/core';
import type { AuditResult } from '@app/crawler';
import type { JobError, JobStatus } from '@app/database';
import { FeatureQuotaService, PageAllowance, PageBudgetService } from '@app/billing';
import { CompletingJob, toAuditEntity, toAuditPage, toJobData } from './audit.mapper';
import { AuditReportRepository } from './audit-report.repository';
import { ENQUEUE_FAILED } from './crawl-failure';
import { JobEventsPublisher } from './job-events';
import { toJobRecord } from './job-record.mapper';
import type { JobRecord, SiteAuditJobData } from './job-record.schema';
import { JobRecordsRepository, JobsTx } from './job-records.repository';
import { SITE_AUDIT_ENDPOINT } from './site-audit.queue';
import { WebhookDeliveriesService } from '@app/webhooks';

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
  /** The plan's monthly crawl count (`site_audit_crawls_per_month`). */
  crawlsPerMonth: number;
  /** `Clock.statementTime()`: null in production, so the crawl's month is PostgreSQL's. */
  at: Date | null;
  requestId: string | null;
  now: Date;
  deadlineAt: Date;
  /** Where the completion webhook goes (already checked); null or absent: none. */
  webhookUrl?: string | null;
}

export type CreateResult =
  | { ok: true; maxPages: number }
  | {
      ok: false;
      quota: 'site_audit_crawls_per_month';
      limit: number;
      /** The database's month of the refused crawl (its resets_at is the next one). */
      periodStart: string;
    }
  | Extract<PageAllowance, { ok: false }>;

/** How a failed site audit settles its quota. */
interface FailureSettlement {
  /** Our fault (internal error, deadline, lost job): give the crawl count and all pages back. */
  refund: boolean;
  /** Pages actually fetched before the failure (kept on the budget when not refunded). */
  pagesUsed: number;
}

/**
 * A site-audit job's life with its quota, from the queued row to its terminal state: created
 * (crawl unit and pages reserved), complete with the stored audit, or failed with its quota
 * settled; and the job records clients read. It spends on the job row
 * (JobRecordsRepository), the rolling page budget (PageBudgetService of libs/billing, one
 * ledger row per job), the monthly crawl count (FeatureQuotaService 'site_audit_crawls') and
 * the stored audit (AuditReportRepository); what belongs together runs in one transaction
 * here. The single-statement moves (running, progress) and the sweeper's reads are the
 * JobRecordsRepository's own: callers use it directly.
 */
@Injectable()
export class JobLifecycleService {
  private readonly logger = new Logger(JobLifecycleService.name);

  constructor(
    private readonly records: JobRecordsRepository,
    private readonly pageBudget: PageBudgetService,
    private readonly audits: AuditReportRepository,
    private readonly quotas: FeatureQuotaService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly events: JobEventsPublisher,
    private readonly webhooks: WebhookDeliveriesService,
  ) {}

  /**
   * Takes the crawl unit of the month's count, reserves the crawl's pages against the rolling
   * 30-day budget and inserts the queued job row, in one short transaction: the crawl unit
   * commits with the job row or not at all, so a request cut anywhere before the commit (the
   * API killed, PostgreSQL restarted, the connection dropped) keeps nothing, and a refusal
   * on pages rolls the crawl unit back. The account row is locked FOR UPDATE first:
   * concurrent requests of the same account queue up there, and because READ COMMITTED takes
   * a new snapshot for every statement, the SUM that follows the lock sees every reservation
   * committed before it. (A single CTE statement would keep the snapshot taken before the
   * lock wait and let two requests spend the same pages.) Nothing else holds the lock, and
   * the transaction runs a few short statements, so the wait is brief.
   */
  async createQueued(input: NewSiteAuditJob): Promise<CreateResult> {
    try {
      return await this.records.transaction((tx) => this.createInTransaction(input, tx));
    } catch (err) {
      if (err instanceof RollBack) return err.result;
      throw err;
    }
  }

  /** createQueued's statements, in order; a page refusal throws RollBack (the crawl unit with it). */
  private async createInTransaction(input: NewSiteAuditJob, tx: JobsTx): Promise<CreateResult> {
    if (!(await this.pageBudget.lockAccount(input.accountId, tx)))
      throw new Error(`account ${input.accountId} not found`);
    const crawl = await this.quotas.reserve(
      input.accountId,
      'site_audit_crawls',
      input.crawlsPerMonth,
      input.at,
      tx,
    );
    if (!crawl.reservation) {
      return {
        ok: false,
        quota: 'site_audit_crawls_per_month',
        limit: input.crawlsPerMonth,
        periodStart: crawl.periodStart,
      };
    }
    const pages = await this.pageBudget.allowance(
      {
        accountId: input.accountId,
        requested: input.requestedPages,
        perCrawl: input.pagesPerCrawl,
        budget: input.rollingBudget,
        at: input.at,
      },
      tx,
    );
    if (!pages.ok) throw new RollBack(pages);
    await this.insertJobRow(input, pages.maxPages, crawl.reservation.periodStart, tx);
    await this.pageBudget.reserve(input.jobId, input.accountId, pages.maxPages, input.at, tx);
    return { ok: true, maxPages: pages.maxPages };
  }

  /** The queued job row with the parameters the worker crawls with. */
  private async insertJobRow(
    input: NewSiteAuditJob,
    maxPages: number,
    quotaPeriodStart: string,
    tx: JobsTx,
  ): Promise<void> {
    const params: SiteAuditParams = {
      url: input.url,
      depth: input.depth,
      max_pages: maxPages,
      requested_max_pages: input.requestedPages,
    };
    await this.records.insertQueued(
      {
        id: input.jobId,
        accountId: input.accountId,
        endpoint: SITE_AUDIT_ENDPOINT,
        params: { ...params },
        quotaPeriodStart,
        requestId: input.requestId,
        createdAt: input.now,
        deadlineAt: input.deadlineAt,
        webhookUrl: input.webhookUrl ?? null,
      },
      tx,
    );
  }

  /** The job record of GET /jobs/:job_id, only when the job belongs to the account. */
  async jobRecord(jobId: string, accountId: number): Promise<JobRecord | null> {
    const job = await this.records.findForAccount(jobId, accountId);
    return job ? toJobRecord(job, this.config.publicBaseUrl) : null;
  }

  /** A page of the account's job records, newest first, with the count of all that match. */
  async jobRecords(
    accountId: number,
    filter: { status?: JobStatus; limit: number; offset: number },
  ): Promise<{ jobs: JobRecord[]; total: number }> {
    const page = await this.records.listForAccount(
      accountId,
      filter.status,
      filter.limit,
      filter.offset,
    );
    return {
      jobs: page.jobs.map((job) => toJobRecord(job, this.config.publicBaseUrl)),
      total: page.total,
    };
  }

  /**
   * running → complete, in one transaction with the audit, its pages and the page-budget
   * reconciliation (the ledger row drops to the pages actually crawled). Null, and nothing
   * stored, when the job is no longer running (swept or ended by another worker).
   */
  async completeWithAudit(
    job: CompletingJob,
    auditId: string,
    result: AuditResult,
    now: Date,
  ): Promise<SiteAuditJobData | null> {
    const data = toJobData(auditId, result);
    let delivery: string | null = null;
    const createdAt = await this.records.transaction(async (tx) => {
      const created = await this.records.complete(tx, job.jobId, data, now);
      if (!created) return null;
      // The webhook outbox row commits with the state change (docs/webhooks.md).
      delivery = await this.webhooks.recordForJob(tx, job.jobId, 'site_audit.completed', now);
      await this.audits.insert(
        toAuditEntity(job, data, result, now),
        result.pages.map((p, i) => toAuditPage(auditId, p, i)),
        tx,
      );
      await this.pageBudget.reconcile(job.jobId, data.pages_crawled, now, tx);
      return created;
    });
    if (!createdAt) return null;
    observeDuration(createdAt, now, 'complete');
    // After the commit: long-polling GET /jobs/:id?wait= requests re-read the row now.
    await this.events.terminal(job.jobId);
    await this.webhooks.enqueueCommitted(delivery);
    return data;
  }

  /**
   * queued | running → failed, with its quota settled in the same transaction as the state
   * change: the page-budget row drops to the pages actually fetched (0 when refunded), and
   * when it was our fault the crawl count is released too (so a crash after the commit can
   * never keep the unit of a refunded job). Only the actor whose UPDATE moved the row
   * settles, so a job is never refunded twice. False when the job was already terminal.
   */
  async failAudit(
    jobId: string,
    error: JobError,
    settlement: FailureSettlement,
    now: Date,
  ): Promise<boolean> {
    const pages = settlement.refund ? 0 : Math.max(0, Math.floor(settlement.pagesUsed));
    let delivery: string | null = null;
    const failed = await this.records.transaction(async (tx) => {
      const row = await this.records.fail(tx, jobId, error, now);
      if (!row) return null;
      await this.pageBudget.reconcile(jobId, pages, now, tx);
      if (settlement.refund && row.quotaPeriodStart) {
        await this.quotas.release(
          {
            accountId: row.accountId,
            feature: 'site_audit_crawls',
            periodStart: row.quotaPeriodStart,
          },
          tx,
        );
      }
      // The webhook outbox row commits with the state change (docs/webhooks.md); not for a
      // job whose POST answered 500 (the client never learned its id).
      if (error.code !== ENQUEUE_FAILED.code)
        delivery = await this.webhooks.recordForJob(tx, jobId, 'site_audit.failed', now);
      return row;
    });
    if (!failed) return false;
    observeDuration(failed.createdAt, now, 'failed');
    if (settlement.refund && failed.quotaPeriodStart)
      this.logger.log(`Job ${jobId} failed (${error.code}); crawl count and pages refunded`);
    // After the commit: long-polling GET /jobs/:id?wait= requests re-read the row now.
    await this.events.terminal(jobId);
    await this.webhooks.enqueueCommitted(delivery);
    return true;
  }
}

/** Thrown inside createQueued's transaction to roll it back (the crawl unit with it). */
class RollBack {
  constructor(readonly result: Extract<CreateResult, { ok: false }>) {}
}

/** `site_audit_job_duration_seconds{state}`: creation to the terminal state, whoever wrote it. */
function observeDuration(createdAt: Date, now: Date, state: 'complete' | 'failed'): void {
  metrics.jobDuration.observe({ state }, Math.max(0, (now.getTime() - createdAt.getTime()) / 1000));
}
