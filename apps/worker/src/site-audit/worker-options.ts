import { loadConfig } from '@app/core';

interface SiteAuditWorkerOptions {
  concurrency: number;
  stalledInterval: number;
  maxStalledCount: number;
  lockDuration: number;
}

/**
 * BullMQ worker options of the site-audit processor. @nestjs/bullmq takes them from the
 * @Processor decorator, i.e. when the class is declared, so they are read from the same
 * validated environment as APP_CONFIG (WORKER_CONCURRENCY, AUDIT_STALLED_INTERVAL_MS,
 * AUDIT_MAX_STALLED_COUNT). The stalled interval is also the job lock duration: a worker that
 * dies loses its lock within that time and its job is recovered at the next checks.
 * An invalid environment falls back to defaults here; bootstrap then stops with the message.
 */
export function siteAuditWorkerOptions(
  env: NodeJS.ProcessEnv = process.env,
): SiteAuditWorkerOptions {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(env);
  } catch {
    config = loadConfig({});
  }
  return {
    concurrency: config.workerConcurrency,
    stalledInterval: config.audit.stalledIntervalMs,
    maxStalledCount: config.audit.maxStalledCount,
    lockDuration: config.audit.stalledIntervalMs,
  };
}
