import { Injectable } from '@nestjs/common';
import { InjectQueue } from '@nestjs/bullmq';
import type { ConnectionOptions, DefaultJobOptions, Queue, QueueOptions } from 'bullmq';
import type { AppConfig } from '@app/core';
import { redisConnectionOptions } from '@app/redis';

/**
 * Queue and job names are persisted in Redis: never rename them. Payloads carry ids only;
 * everything else is read from the job row in PostgreSQL.
 */
export const SITE_AUDIT_QUEUE = 'site-audit';
const SITE_AUDIT_JOB = 'crawl';

/** The endpoint name stored on job rows and shown as `endpoint` in the job record. */
export const SITE_AUDIT_ENDPOINT = 'site-audit';

export interface SiteAuditJobPayload {
  /** The public job id (also the BullMQ job id). */
  jobId: string;
  accountId: number;
}

/** Attempts of one site-audit job: a transient failure (not the site's fault) is retried. */
const SITE_AUDIT_ATTEMPTS = 3;

/** Retries and backoff are configured here and nowhere else. */
export const SITE_AUDIT_JOB_OPTIONS: DefaultJobOptions = {
  attempts: SITE_AUDIT_ATTEMPTS,
  backoff: { type: 'exponential', delay: 10_000 }, // 10 s, then 20 s
  removeOnComplete: { age: 7 * 86_400, count: 10_000 },
  removeOnFail: { age: 30 * 86_400 },
};

/**
 * BullMQ connection from REDIS_URL, or through the Sentinels (redisConnectionOptions);
 * BullMQ's own `prefix` is REDIS_PREFIX, so its keys are `${REDIS_PREFIX}:site-audit:*` like
 * every other key the service writes.
 */
export function bullRootOptions(config: AppConfig): QueueOptions {
  return {
    connection: {
      ...redisConnectionOptions(config),
      maxRetriesPerRequest: null,
    } as ConnectionOptions,
    prefix: config.redisPrefix,
  };
}

/**
 * How the queue ended a job without the job row having ended: `lost` (the queue no longer
 * knows it), `completed`, `stalled` (failed after too many stalls) or `failed`; null while
 * the queue still holds it (waiting, delayed, active).
 */
export type QueueOutcome = 'lost' | 'completed' | 'stalled' | 'failed' | null;

/**
 * The site-audit queue: the one place that adds jobs to BullMQ (the API's start-audit path)
 * and reads their state back (the sweeper).
 */
@Injectable()
export class SiteAuditQueue {
  constructor(@InjectQueue(SITE_AUDIT_QUEUE) private readonly queue: Queue<SiteAuditJobPayload>) {}

  /** Enqueues one crawl; the BullMQ job id is the public job id (so a repeat is a no-op). */
  async enqueue(payload: SiteAuditJobPayload): Promise<void> {
    await this.queue.add(SITE_AUDIT_JOB, payload, { jobId: payload.jobId });
  }

  async outcome(jobId: string): Promise<QueueOutcome> {
    const state = await this.queue.getJobState(jobId);
    if (state === 'unknown') return 'lost';
    if (state === 'completed') return 'completed';
    if (state === 'failed') {
      const job = await this.queue.getJob(jobId);
      return /stalled/i.test(job?.failedReason ?? '') ? 'stalled' : 'failed';
    }
    return null;
  }
}
