import { Injectable } from '@nestjs/common';
import { InjectQueue } from '@nestjs/bullmq';
import type { DefaultJobOptions, Queue } from 'bullmq';

/** Queue and job names are persisted in Redis: never rename them. */
export const WEBHOOKS_QUEUE = 'webhooks';
const WEBHOOK_JOB = 'deliver';

export interface WebhookJobPayload {
  /** The delivery id (also the BullMQ job id and the `webhook-id` header). */
  deliveryId: string;
}

/**
 * One BullMQ run per delivery: the processor makes one attempt and, when another is due,
 * moves the same job to the delayed set (the retry schedule is WEBHOOK_RETRY_SCHEDULE_MS,
 * counted on the delivery row). A job that throws is failed at once; the sweep puts its
 * still-pending delivery back.
 */
export const WEBHOOK_JOB_OPTIONS: DefaultJobOptions = {
  attempts: 1,
  removeOnComplete: { age: 86_400, count: 10_000 },
  removeOnFail: { age: 7 * 86_400 },
};

/** The webhooks queue: the one place that adds deliveries to BullMQ and reads their state. */
@Injectable()
export class WebhooksQueue {
  constructor(@InjectQueue(WEBHOOKS_QUEUE) private readonly queue: Queue<WebhookJobPayload>) {}

  /** Enqueues a delivery; the BullMQ job id is the delivery id, so a repeat is a no-op. */
  async enqueue(deliveryId: string, delayMs = 0): Promise<void> {
    await this.queue.add(WEBHOOK_JOB, { deliveryId }, { jobId: deliveryId, delay: delayMs });
  }

  /**
   * Makes sure a pending delivery is in the queue: re-adds it when the queue lost it or has
   * already finished its job (e.g. a crash between the commit and the enqueue, or an attempt
   * that threw). True when it was (re-)added.
   */
  async ensureQueued(deliveryId: string): Promise<boolean> {
    const state = await this.queue.getJobState(deliveryId);
    if (state === 'completed' || state === 'failed') {
      await this.queue.remove(deliveryId);
    } else if (state !== 'unknown') {
      return false; // waiting, delayed or active
    }
    await this.enqueue(deliveryId);
    return true;
  }
}
