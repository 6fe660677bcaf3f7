import type { DefaultJobOptions } from 'bullmq';

/**
 * The Search Console sync's queue and job name (persisted in Redis: never rename them). The
 * job carries no data: each run claims what is due from PostgreSQL. One job scheduler of
 * BullMQ (`upsertJobScheduler`, shared by every worker) starts a run every
 * GSC_SYNC_TICK_SECONDS.
 */
export const GSC_SYNC_QUEUE = 'gsc-sync';
export const GSC_SYNC_DUE_JOB = 'sync-due';

/** A failed run is not retried: the next tick claims what is still due. */
export const GSC_SYNC_JOB_OPTIONS: DefaultJobOptions = {
  attempts: 1,
  removeOnComplete: { count: 100 },
  removeOnFail: { count: 1000 },
};
