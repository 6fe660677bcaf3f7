import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig, Clock, isoTimestamp, metrics } from '@app/core';
import type { WebhookDeliveryEntity, WebhookEvent } from '@app/database';
import { newDeliveryId } from '../ids';
import { toJobRecord } from '../job-record.mapper';
import { JobRecordsRepository as JobsRepository } from '../job-records.repository';
import { postWebhook } from './webhook-sender';
import { WebhookSecretsService } from './webhook-secrets.service';
import { signWebhook } from './webhook-signature';
import { webhookAddressPolicy } from './webhook-url';
import { WebhookDeliveryView, toDeliveryView } from './webhook.mapper';
import { WebhooksQueue } from './webhooks.queue';
import { OutboxTx, WebhooksRepository } from './webhooks.repository';

const WEBHOOK_USER_AGENT = 'SeoApi-Webhooks/1.0 (+site-audit completion, usage alerts)';

/** What one attempt decided. */
export type AttemptOutcome =
  | { outcome: 'delivered'; status: number }
  | { outcome: 'retry'; delayMs: number }
  | { outcome: 'failed' | 'gone' }
  | { outcome: 'skipped' };

/**
 * Webhook deliveries: the outbox row written with the job's terminal transition, the enqueue
 * after the commit, and one signed attempt at a time (the worker's processor calls
 * `attempt`). At-least-once: the receiver dedupes on `webhook-id`.
 */
@Injectable()
export class WebhookDeliveriesService {
  private readonly logger = new Logger(WebhookDeliveriesService.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repo: WebhooksRepository,
    private readonly jobs: JobsRepository,
    private readonly secrets: WebhookSecretsService,
    private readonly queue: WebhooksQueue,
    private readonly clock: Clock,
  ) {}

  /**
   * Writes the delivery of a job that ended, on the transaction of its terminal transition
   * (nothing when the job has no webhook_url). Answers the delivery id to enqueue after the
   * commit.
   */
  recordForJob(
    tx: OutboxTx,
    jobId: string,
    event: WebhookEvent,
    now: Date,
  ): Promise<string | null> {
    return this.repo.insertForJob(tx, newDeliveryId(), jobId, event, now);
  }

  /**
   * Enqueues a committed delivery. Never throws: should Redis fail here, the delivery stays
   * pending and the worker's sweep enqueues it.
   */
  async enqueueCommitted(deliveryId: string | null): Promise<void> {
    if (!deliveryId) return;
    try {
      await this.queue.enqueue(deliveryId);
    } catch (err) {
      this.logger.warn(
        { err, delivery_id: deliveryId },
        'Could not enqueue a webhook delivery; the sweep will',
      );
    }
  }

  /** One signed attempt of a delivery, recorded on its row. */
  async attempt(deliveryId: string): Promise<AttemptOutcome> {
    const delivery = await this.repo.find(deliveryId);
    if (!delivery || delivery.status !== 'pending') return { outcome: 'skipped' };
    const data = await this.eventData(delivery);
    if (data === null) return { outcome: 'skipped' };

    const now = this.clock.now();
    const body = JSON.stringify({
      type: delivery.event,
      timestamp: isoTimestamp(delivery.createdAt),
      data,
    });
    const timestamp = Math.floor(now.getTime() / 1000);
    const secrets = await this.secrets.signingSecrets(delivery.accountId, now);
    const url = new URL(delivery.url);
    const answer = await postWebhook({
      url: delivery.url,
      body,
      timeoutMs: this.config.webhooks.timeoutMs,
      policy: webhookAddressPolicy(url.protocol, this.config.auditAllowPrivateNetworks),
      headers: {
        'content-type': 'application/json',
        'user-agent': WEBHOOK_USER_AGENT,
        'webhook-id': delivery.id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signWebhook(secrets, delivery.id, timestamp, body),
      },
    });

    const at = this.clock.now();
    const statusCode = 'status' in answer ? answer.status : null;
    const error = 'error' in answer ? answer.error : null;
    const schedule = this.config.webhooks.retryScheduleMs;
    let outcome: AttemptOutcome;
    if (statusCode !== null && statusCode >= 200 && statusCode < 300) {
      outcome = { outcome: 'delivered', status: statusCode };
    } else if (statusCode === 410) {
      outcome = { outcome: 'gone' };
    } else if (delivery.attempts < schedule.length) {
      outcome = { outcome: 'retry', delayMs: schedule[delivery.attempts] };
    } else {
      outcome = { outcome: 'failed' };
    }
    const recorded = await this.repo.recordAttempt(deliveryId, {
      status:
        outcome.outcome === 'delivered'
          ? 'delivered'
          : outcome.outcome === 'retry'
            ? 'pending'
            : 'failed',
      statusCode,
      error,
      at,
      nextAttemptAt: outcome.outcome === 'retry' ? new Date(at.getTime() + outcome.delayMs) : null,
    });
    if (!recorded) return { outcome: 'skipped' };
    metrics.webhookDeliveries.inc({ outcome: outcome.outcome });
    const logged = {
      delivery_id: deliveryId,
      job_id: delivery.jobId,
      attempt: delivery.attempts + 1,
      status_code: statusCode,
      error,
    };
    if (outcome.outcome === 'delivered') this.logger.log(logged, 'Webhook delivered');
    else this.logger.warn(logged, `Webhook attempt failed (${outcome.outcome})`);
    return outcome;
  }

  /**
   * The `data` of a delivery's body: the job record of a job event (read when sent, so it is
   * the final record), or the data stored with the delivery (usage alerts). Null when there is
   * nothing to send (the job is gone or not ended).
   */
  private async eventData(delivery: WebhookDeliveryEntity): Promise<object | null> {
    if (delivery.jobId === null) return delivery.payload;
    const job = await this.jobs.findForAccount(delivery.jobId, delivery.accountId);
    if (!job || (job.status !== 'complete' && job.status !== 'failed')) return null;
    return toJobRecord(job, this.config.publicBaseUrl);
  }

  /**
   * Puts back in the queue the pending deliveries whose next attempt was due before `before`
   * and that the queue does not hold (the sweep). Answers how many were re-added.
   */
  async requeueOverdue(before: Date, limit: number): Promise<number> {
    let requeued = 0;
    for (const { id } of await this.repo.overdue(before, limit)) {
      if (await this.queue.ensureQueued(id)) requeued++;
    }
    return requeued;
  }

  /** The account's deliveries, newest first. */
  async list(accountId: number, limit: number, offset = 0): Promise<WebhookDeliveryView[]> {
    return (await this.repo.listForAccount(accountId, limit, offset)).map(toDeliveryView);
  }
}
