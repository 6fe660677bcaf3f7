import { metrics } from './metrics';

/**
 * Every BullMQ queue the service uses, by name: the one list the queue-depth gauge (API and
 * worker /metrics) and the queue dashboard (/admin/queues) read. Add a queue here when you
 * add one to the service (names are persisted in Redis: never rename one).
 */
export const MONITORED_QUEUES: readonly string[] = ['site-audit', 'webhooks'];

/** The job states the queue-depth gauge reports. */
const QUEUE_STATES = ['waiting', 'active', 'delayed', 'failed', 'completed'] as const;

/** What the sampler needs of a BullMQ Queue. */
interface CountableQueue {
  readonly name: string;
  getJobCounts(...types: string[]): Promise<Record<string, number>>;
}

/**
 * Sets `queue_jobs{queue,state}` from each queue's counts (one Redis round trip per queue),
 * at scrape time. A queue that cannot be read keeps its previous values; the error is returned
 * so the caller can log it, never thrown (a scrape still answers).
 */
export async function sampleQueueDepths(queues: readonly CountableQueue[]): Promise<unknown[]> {
  const errors: unknown[] = [];
  await Promise.all(
    queues.map(async (queue) => {
      try {
        const counts = await queue.getJobCounts(...QUEUE_STATES);
        for (const state of QUEUE_STATES) {
          metrics.queueDepth.set({ queue: queue.name, state }, counts[state] ?? 0);
        }
      } catch (err) {
        errors.push(err);
      }
    }),
  );
  return errors;
}
