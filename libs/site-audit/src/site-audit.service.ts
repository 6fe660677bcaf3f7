import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  APP_CONFIG,
  ApiError,
  AppConfig,
  Clock,
  nextMonthStart,
  plainDate,
  recordTimestamp,
  withTimeout,
} from '@app/core';
import { AuthContext } from '@app/accounts';
import { DEPENDENCY_RETRY_AFTER_SECONDS, unreachableDependency } from '@app/database';
import { FeatureQuotaService } from '@app/billing';
import { assertPublicHost, isCrawlError } from '@app/crawler';
import { ENQUEUE_FAILED } from './crawl-failure';
import { newJobId } from './ids';
import { CreateResult, SiteAuditJobsService } from './site-audit-jobs.service';
import { SiteAuditQueue } from './site-audit.queue';
import { assertWebhookTarget } from './webhooks/webhook-url';

export const DEFAULT_DEPTH = 3;
export const DEFAULT_MAX_PAGES = 100;
/** Longest wait for the host lookup before giving up. */
const HOST_CHECK_TIMEOUT_MS = 5000;
const HOST_LOOKUP_TIMED_OUT = `host lookup timed out after ${HOST_CHECK_TIMEOUT_MS} ms`;

/** What POST /site-audit asks for (validated at the HTTP edge). */
export interface StartAuditRequest {
  url: string;
  depth?: number;
  max_pages?: number;
  /** Where to POST the signed completion webhook (docs/webhooks.md). */
  webhook_url?: string | null;
}

export interface AcceptedAudit {
  jobId: string;
  maxPages: number;
}

/**
 * Accepts a site audit: checks the target, reserves the crawl count and the pages, inserts
 * the queued job row and enqueues it. Any failure after a reservation gives it back.
 */
@Injectable()
export class SiteAuditService {
  private readonly logger = new Logger(SiteAuditService.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly queue: SiteAuditQueue,
    private readonly jobs: SiteAuditJobsService,
    private readonly quotas: FeatureQuotaService,
    private readonly clock: Clock,
  ) {}

  async start(
    auth: AuthContext,
    body: StartAuditRequest,
    requestId: string,
  ): Promise<AcceptedAudit> {
    const url = new URL(body.url);
    url.hash = '';
    await this.assertPublicTarget(url.hostname);
    const webhookUrl = body.webhook_url ?? null;
    if (webhookUrl !== null) await this.assertWebhookTarget(webhookUrl);

    const now = this.clock.now();
    const crawl = await this.quotas.reserve(
      auth.accountId,
      'site_audit_crawls',
      auth.limits.site_audit_crawls_per_month,
      now,
    );
    if (!crawl) {
      const resetsAt = plainDate(nextMonthStart(now));
      throw new ApiError(
        'QUOTA_EXCEEDED',
        `Monthly site-audit crawl limit of ${auth.limits.site_audit_crawls_per_month} reached. It resets on ${resetsAt}.`,
        {
          meta: {
            quota: 'site_audit_crawls_per_month',
            limit: auth.limits.site_audit_crawls_per_month,
            resets_at: resetsAt,
          },
        },
      );
    }

    const jobId = newJobId();
    let created: CreateResult;
    try {
      created = await this.jobs.createQueued({
        jobId,
        accountId: auth.accountId,
        url: url.href,
        depth: body.depth ?? DEFAULT_DEPTH,
        requestedPages: body.max_pages ?? DEFAULT_MAX_PAGES,
        pagesPerCrawl: auth.limits.site_audit_pages_per_crawl,
        rollingBudget: auth.limits.site_audit_rolling_page_budget,
        quotaPeriodStart: crawl.periodStart,
        requestId,
        now,
        deadlineAt: new Date(now.getTime() + this.config.audit.jobDeadlineSeconds * 1000),
        webhookUrl,
      });
    } catch (err) {
      await this.quotas.release(crawl);
      throw err;
    }
    if (!created.ok) {
      await this.quotas.release(crawl);
      if (created.quota === 'site_audit_pages_per_crawl') {
        throw new ApiError(
          'QUOTA_EXCEEDED',
          'This account may not crawl any pages (per-crawl page limit is 0).',
          {
            meta: { quota: 'site_audit_pages_per_crawl', limit: created.limit },
          },
        );
      }
      const resetsAt = created.resetsAt ? recordTimestamp(created.resetsAt) : null;
      throw new ApiError(
        'QUOTA_EXCEEDED',
        `Rolling 30-day site-audit page budget of ${created.limit} pages is used up` +
          (resetsAt ? `; pages become available again from ${resetsAt} UTC.` : '.'),
        {
          meta: {
            quota: 'site_audit_rolling_page_budget',
            limit: created.limit,
            used: created.used,
            ...(resetsAt ? { resets_at: resetsAt } : {}),
          },
        },
      );
    }

    try {
      await withTimeout(
        this.queue.enqueue({ jobId, accountId: auth.accountId }),
        // The queue's connection waits for Redis (BullMQ needs that for its workers): the
        // request does not, beyond the bound of any other Redis command.
        this.config.redisCommandTimeoutMs,
        // ioredis's wording: the exception filter reads it as "Redis unreachable" (one log
        // line per outage, 500 SERVER_ERROR with Retry-After).
        'Command timed out (enqueue)',
      );
    } catch (err) {
      if (!unreachableDependency(err))
        this.logger.error({ err, job_id: jobId }, 'Could not enqueue the site audit; refunding');
      // Refunds the crawl count and the pages; should the enqueue land after all, the worker
      // finds the row failed and skips it.
      await this.jobs.failAudit(
        jobId,
        ENQUEUE_FAILED,
        { refund: true, pagesUsed: 0 },
        this.clock.now(),
      );
      throw new ApiError(
        'SERVER_ERROR',
        'The audit could not be queued. Nothing was charged; it is safe to retry.',
        {
          cause: err,
          headers: { 'Retry-After': DEPENDENCY_RETRY_AFTER_SECONDS },
        },
      );
    }
    return { jobId, maxPages: created.maxPages };
  }

  /**
   * 422 unless the webhook URL is https to a host whose every address is public (with
   * AUDIT_ALLOW_PRIVATE_NETWORKS=true: also http to loopback). Checked before anything is
   * reserved; the worker checks the address again at connect time.
   */
  private assertWebhookTarget(value: string): Promise<void> {
    return assertWebhookTarget(value, this.config.auditAllowPrivateNetworks);
  }

  /** 422 unless every address of the host is public (or AUDIT_ALLOW_PRIVATE_NETWORKS=true). */
  private async assertPublicTarget(hostname: string): Promise<void> {
    try {
      await withTimeout(
        assertPublicHost(hostname, this.config.auditAllowPrivateNetworks),
        HOST_CHECK_TIMEOUT_MS,
        HOST_LOOKUP_TIMED_OUT,
      );
    } catch (err) {
      if (isCrawlError(err) && err.code === 'PRIVATE_ADDRESS') {
        throw ApiError.validation(
          'url',
          'url must point to a public host: private, loopback, link-local and reserved addresses cannot be audited',
        );
      }
      if (isCrawlError(err) && err.code === 'INVALID_URL') {
        throw ApiError.validation('url', 'url has an invalid host name');
      }
      if (isCrawlError(err) || (err instanceof Error && err.message === HOST_LOOKUP_TIMED_OUT)) {
        throw ApiError.validation('url', `url host ${hostname} could not be resolved`);
      }
      throw err;
    }
  }
}
