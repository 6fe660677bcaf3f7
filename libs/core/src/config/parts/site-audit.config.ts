import { z } from 'zod';
import { bool, int } from './env-values';

/** Site-audit jobs (docs/site-audit-jobs.md): the crawler, the worker, the long-poll. */
export const siteAuditEnv = z.object({
  AUDIT_ALLOW_PRIVATE_NETWORKS: bool('AUDIT_ALLOW_PRIVATE_NETWORKS', false),
  AUDIT_USER_AGENT: z
    .string()
    .optional()
    .transform((v) => (v === undefined || v.trim() === '' ? 'SeoApiAuditBot/1.0' : v.trim()))
    .pipe(z.string().regex(/^[\x20-\x7e]{1,200}$/, 'must be 1-200 printable ASCII characters')),
  AUDIT_CRAWL_TIME_LIMIT_SECONDS: int(5, 3600, 240),
  AUDIT_JOB_DEADLINE_SECONDS: int(60, 7 * 86_400, 1800),
  WORKER_CONCURRENCY: int(1, 64, 2),
  AUDIT_STALLED_INTERVAL_MS: int(500, 600_000, 30_000),
  AUDIT_MAX_STALLED_COUNT: int(0, 10, 1),
  AUDIT_POLITENESS_DELAY_MS: int(0, 60_000, 250),
  AUDIT_SWEEP_INTERVAL_MS: int(1000, 3_600_000, 60_000),
  // ---- long-poll GET /jobs/{id}?wait= (docs/site-audit-jobs.md) ----
  JOBS_WAIT_MAX_PER_ACCOUNT: int(0, 1_000_000, 10),
  JOBS_WAIT_MAX_TOTAL: int(0, 1_000_000, 5_000),
  JOBS_WAIT_RECHECK_MS: int(100, 60_000, 5_000),
});
type SiteAuditEnv = z.infer<typeof siteAuditEnv>;

export interface SiteAuditConfig {
  auditAllowPrivateNetworks: boolean;
  /** Site-audit jobs: crawl settings and worker behaviour (docs/site-audit-jobs.md). */
  audit: {
    /** AUDIT_USER_AGENT: User-Agent of the crawler, also its robots.txt product token. */
    userAgent: string;
    /** AUDIT_CRAWL_TIME_LIMIT_SECONDS: one crawl attempt stops (and reports what it has) after this. */
    crawlTimeLimitSeconds: number;
    /** AUDIT_JOB_DEADLINE_SECONDS: a job still queued/running this long after creation is failed by the sweeper. */
    jobDeadlineSeconds: number;
    /** AUDIT_STALLED_INTERVAL_MS: stalled-job check interval, also the job lock duration. */
    stalledIntervalMs: number;
    /** AUDIT_MAX_STALLED_COUNT: how often a job may stall (worker died) before BullMQ fails it. */
    maxStalledCount: number;
    /** AUDIT_POLITENESS_DELAY_MS: per-host delay between request starts. */
    politenessDelayMs: number;
    /** AUDIT_SWEEP_INTERVAL_MS: how often the worker looks for jobs past their deadline. */
    sweepIntervalMs: number;
  };
  /** WORKER_CONCURRENCY: crawls one worker process runs at the same time. */
  workerConcurrency: number;
  /** Long-poll of GET /jobs/{job_id}?wait=N (docs/site-audit-jobs.md, "Waiting for a job"). */
  jobsWait: {
    /** JOBS_WAIT_MAX_PER_ACCOUNT: waiting requests one account may hold on one API process. */
    maxPerAccount: number;
    /** JOBS_WAIT_MAX_TOTAL: waiting requests one API process holds in total. */
    maxTotal: number;
    /** JOBS_WAIT_RECHECK_MS: re-read interval of a waiting request while the Redis subscription is down. */
    recheckMs: number;
  };
}

export function siteAuditConfig(e: SiteAuditEnv): SiteAuditConfig {
  return {
    auditAllowPrivateNetworks: e.AUDIT_ALLOW_PRIVATE_NETWORKS,
    audit: {
      userAgent: e.AUDIT_USER_AGENT,
      crawlTimeLimitSeconds: e.AUDIT_CRAWL_TIME_LIMIT_SECONDS,
      jobDeadlineSeconds: e.AUDIT_JOB_DEADLINE_SECONDS,
      stalledIntervalMs: e.AUDIT_STALLED_INTERVAL_MS,
      maxStalledCount: e.AUDIT_MAX_STALLED_COUNT,
      politenessDelayMs: e.AUDIT_POLITENESS_DELAY_MS,
      sweepIntervalMs: e.AUDIT_SWEEP_INTERVAL_MS,
    },
    workerConcurrency: e.WORKER_CONCURRENCY,
    jobsWait: {
      maxPerAccount: e.JOBS_WAIT_MAX_PER_ACCOUNT,
      maxTotal: e.JOBS_WAIT_MAX_TOTAL,
      recheckMs: e.JOBS_WAIT_RECHECK_MS,
    },
  };
}

export function checkSiteAudit(e: SiteAuditEnv, ctx: z.RefinementCtx): void {
  if (e.AUDIT_JOB_DEADLINE_SECONDS <= e.AUDIT_CRAWL_TIME_LIMIT_SECONDS) {
    ctx.addIssue({
      code: 'custom',
      path: ['AUDIT_JOB_DEADLINE_SECONDS'],
      message:
        'must be greater than AUDIT_CRAWL_TIME_LIMIT_SECONDS (a job needs time for its crawl and retries)',
    });
  }
}
