import type { DefaultJobOptions } from 'bullmq';

/**
 * Rank collection's queue and job names (persisted in Redis: never rename them). Its jobs
 * carry no data: each run reads what is due from PostgreSQL. Three job schedulers of BullMQ
 * (`upsertJobScheduler`, one per job name, shared by every worker: one job per interval)
 * start the runs.
 */
export const RANK_COLLECTION_QUEUE = 'rank-collection';
export const RANK_POST_JOB = 'post-due';
export const RANK_COLLECT_JOB = 'collect';
export const RANK_METRICS_JOB = 'refresh-metrics';
export type RankCollectionJobName =
  typeof RANK_POST_JOB | typeof RANK_COLLECT_JOB | typeof RANK_METRICS_JOB;

/** A failed run is not retried: the next interval's run does its work. */
export const RANK_COLLECTION_JOB_OPTIONS: DefaultJobOptions = {
  attempts: 1,
  removeOnComplete: { count: 100 },
  removeOnFail: { count: 1000 },
};
