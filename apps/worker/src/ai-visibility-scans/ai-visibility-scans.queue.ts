import type { DefaultJobOptions } from 'bullmq';

/**
 * The AI-visibility scans' queue and job name (persisted in Redis: never rename them). The
 * job carries no data: each run claims the due projects from PostgreSQL. One job scheduler
 * of BullMQ (`upsertJobScheduler`, shared by every worker) starts a run every
 * AI_VISIBILITY_SCAN_TICK_SECONDS.
 */
export const AI_SCANS_QUEUE = 'ai-visibility-scans';
export const AI_SCANS_DUE_JOB = 'scan-due';

/** A failed run is not retried: the next tick claims what is still due. */
export const AI_SCANS_JOB_OPTIONS: DefaultJobOptions = {
  attempts: 1,
  removeOnComplete: { count: 100 },
  removeOnFail: { count: 1000 },
};
