import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  APP_CONFIG,
  ApiError,
  AppConfig,
  Clock,
  monthAfter,
  recordTimestamp,
  withTimeout,
} from '@app/core';
import { AuthContext } from '@app/accounts';
import {
  DEPENDENCY_RETRY_AFTER_SECONDS,
  redisOutOfMemory,
  unreachableDependency,
} from '@app/database';
import { assertPublicHost, isCrawlError } from '@app/crawler';
import { ENQUEUE_FAILED } from './crawl-failure';
import { newJobId } from './ids';
import { CreateResult, JobLifecycleService } from './job-lifecycle.service';
import { SiteAuditQueue } from './site-audit.queue';
import { assertWebhookTarget } from '@app/webhooks';

const DEFAULT_DEPTH = 3;
const DEFAULT_MAX_PAGES = 100;
/** Longest wait for the host lookup before giving up. */
const HOST_CHECK_TIMEOUT_MS = 5000;
const HOST_LOOKUP_TIMED_OUT = `host lookup timed out after ${HOST_CHECK_TIMEOUT_MS} ms`;

/** What POST /site-audit asks for (validated at the HTTP edge). */
interface StartAuditRequest {
  url: string;
  depth?: number;
  max_pages?: number;
  /** Where to POST the signed completion webhook (docs/webhooks.md). */
  webhook_url?: string | null;
}

interface AcceptedAudit {
  jobId: string;
  maxPages: number;
}

/**
 * Accepts a site audit: checks the target, then takes the crawl count and the pages and
 * inserts the queued job row in one transaction, and enqueues it. An enqueue failure fails
 * the job with a refund.
 */
@Injectable()
export class StartAuditService {
  private readonly logger = new Logger(StartAuditService.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly queue: SiteAuditQueue,
    private readonly jobs: JobLifecycleService,
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
    const jobId = newJobId();
    // The crawl unit, the pages and the job row commit together (JobLifecycleService):
    // a request cut before the commit keeps nothing.
    const created = await this.jobs.createQueued({
      jobId,
      accountId: auth.accountId,
      url: url.href,
      depth: body.depth ?? DEFAULT_DEPTH,
      requestedPages: body.max_pages ?? DEFAULT_MAX_PAGES,
      crawlsPerMonth: auth.limits.site_audit_crawls_per_month,
      pagesPerCrawl: auth.limits.site_audit_pages_per_crawl,
      rollingBudget: auth.limits.site_audit_rolling_page_budget,
      at: this.clock.statementTime(),
      requestId,
      now,
      deadlineAt: new Date(now.getTime() + this.config.audit.jobDeadlineSeconds * 1000),
      webhookUrl,
    });
    if (!created.ok) throw quotaExceeded(created);
    await this.enqueue(jobId, auth.accountId);
    return { jobId, maxPages: created.maxPages };
  }

  /**
   * Enqueues the job, bounded like any Redis command. On failure the job row is failed with a
   * refund (a late enqueue then finds it failed and is skipped) and 500 SERVER_ERROR is thrown.
   */
  private async enqueue(jobId: string, accountId: number): Promise<void> {
    try {
      await withTimeout(
        this.queue.enqueue({ jobId, accountId }),
        // The queue's connection waits for Redis (BullMQ needs that for its workers): the
        // request does not, beyond the bound of any other Redis command.
        this.config.redisCommandTimeoutMs,
        // ioredis's wording: the exception filter reads it as "Redis unreachable" (one log
        // line per outage, 500 SERVER_ERROR with Retry-After).
        'Command timed out (enqueue)',
      );
    } catch (err) {
      // An outage or a full Redis (OOM) is counted and logged by DependencyHealth.
      if (!unreachableDependency(err) && !redisOutOfMemory(err))
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

/**
 * 429 QUOTA_EXCEEDED for a refused job: the month's crawl count used up (it resets on the
 * first of the database's next month), no pages allowed per crawl, or the rolling budget used up.
 */
function quotaExceeded(refused: Extract<CreateResult, { ok: false }>): ApiError {
  if (refused.quota === 'site_audit_crawls_per_month') {
    const resetsAt = monthAfter(refused.periodStart);
    return new ApiError(
      'QUOTA_EXCEEDED',
      `Monthly site-audit crawl limit of ${refused.limit} reached. It resets on ${resetsAt}.`,
      { meta: { quota: 'site_audit_crawls_per_month', limit: refused.limit, resets_at: resetsAt } },
    );
  }
  if (refused.quota === 'site_audit_pages_per_crawl') {
    return new ApiError(
      'QUOTA_EXCEEDED',
      'This account may not crawl any pages (per-crawl page limit is 0).',
      {
        meta: { quota: 'site_audit_pages_per_crawl', limit: refused.limit },
      },
    );
  }
  const resetsAt = refused.resetsAt ? recordTimestamp(refused.resetsAt) : null;
  return new ApiError(
    'QUOTA_EXCEEDED',
    `Rolling 30-day site-audit page budget of ${refused.limit} pages is used up` +
      (resetsAt ? `; pages become available again from ${resetsAt} UTC.` : '.'),
    {
      meta: {
        quota: 'site_audit_rolling_page_budget',
        limit: refused.limit,
        used: refused.used,
        ...(resetsAt ? { resets_at: resetsAt } : {}),
      },
    },
  );
}
