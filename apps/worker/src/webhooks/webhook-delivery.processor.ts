import { BeforeApplicationShutdown, Logger } from '@nestjs/common';
import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { DelayedError, Job } from 'bullmq';
import { loadConfig } from '@app/core';
import {
  AttemptOutcome,
  WEBHOOKS_QUEUE,
  WebhookDeliveriesService,
  WebhookJobPayload,
} from '@app/webhooks';

/** WEBHOOK_CONCURRENCY, read when the class is declared (as the site-audit worker options are). */
function webhookConcurrency(): number {
  try {
    return loadConfig().webhooks.concurrency;
  } catch {
    return loadConfig({}).webhooks.concurrency;
  }
}

/**
 * Sends site-audit webhooks: one signed attempt per run (WebhookDeliveriesService.attempt);
 * when another attempt is due, the same BullMQ job moves to the delayed set until then, so
 * the delivery keeps its id (= `webhook-id`) through every retry.
 */
@Processor(WEBHOOKS_QUEUE, { concurrency: webhookConcurrency() })
export class WebhookDeliveryProcessor extends WorkerHost implements BeforeApplicationShutdown {
  private readonly logger = new Logger(WebhookDeliveryProcessor.name);

  constructor(private readonly deliveries: WebhookDeliveriesService) {
    super();
  }

  async process(job: Job<WebhookJobPayload>, token?: string): Promise<AttemptOutcome> {
    const result = await this.deliveries.attempt(job.data.deliveryId);
    if (result.outcome === 'retry') {
      await job.moveToDelayed(Date.now() + result.delayMs, token);
      throw new DelayedError();
    }
    return result;
  }

  /** SIGTERM: stop taking deliveries and let the ones in flight finish (10 s at most each). */
  async beforeApplicationShutdown(): Promise<void> {
    await this.worker.close();
  }

  @OnWorkerEvent('error')
  onError(err: Error): void {
    this.logger.error({ err }, 'Webhook worker error');
  }
}
