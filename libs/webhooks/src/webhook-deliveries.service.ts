import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig, Clock, isoTimestamp, metrics, recordTimestamp } from '@app/core';
import type { WebhookDeliveryEntity, WebhookEvent } from '@app/database';
import { newDeliveryId } from './delivery-id';
import { WebhookJobRecords } from './webhook-job-records';
import { WebhookResponse, postWebhook } from './webhook-sender';
import { WebhookSecretsService } from './webhook-secrets.service';
import { signWebhook } from './webhook-signature';
import { webhookAddressPolicy } from './webhook-url';
import { WebhookDeliveryView, toDeliveryView } from './webhook.mapper';
import { WebhooksQueue } from './webhooks.queue';
import { OutboxTx, WebhooksRepository } from './webhooks.repository';

const WEBHOOK_USER_AGENT = 'SeoApi-Webhooks/1.0 (+site-audit completion, usage alerts)';

/** The `type` of a test delivery (never stored, never retried). */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/** What a test delivery got (POST /account/v1/webhooks/{id}/test). */
export interface WebhookTestResult {
  /** The `webhook-id` header it was sent with. */
  webhook_id: string;
  event: typeof WEBHOOK_TEST_EVENT;
  url: string;
  /** A 2xx answer. */
  delivered: boolean;
  /** The receiver's status code; null when there was no answer (see `error`). */
  status_code: number | null;
  /** Why there was no answer: timeout, refused address, connection failed (…). */
  error: string | null;
  duration_ms: number;
  sent_at: string;
}

/** What one attempt decided. */
export type AttemptOutcome =
  | { outcome: 'delivered'; status: number }
  | { outcome: 'retry'; delayMs: number }
  | { outcome: 'failed' | 'gone' }
  | { outcome: 'skipped' };

/** The status an attempt leaves on the delivery's row. */
const STORED_STATUS = {
  delivered: 'delivered',
  retry: 'pending',
  failed: 'failed',
  gone: 'failed',
} as const;

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
    private readonly jobs: WebhookJobRecords,
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
    const answer = await this.post(delivery, data);
    const statusCode = 'status' in answer ? answer.status : null;
    const error = 'error' in answer ? answer.error : null;
    const outcome = this.outcomeOf(statusCode, delivery.attempts);
    const at = this.clock.now();
    const recorded = await this.repo.recordAttempt(deliveryId, {
      status: STORED_STATUS[outcome.outcome],
      statusCode,
      error,
      at,
      nextAttemptAt: outcome.outcome === 'retry' ? new Date(at.getTime() + outcome.delayMs) : null,
    });
    if (!recorded) return { outcome: 'skipped' };
    metrics.webhookDeliveries.inc({ outcome: outcome.outcome });
    this.logAttempt(delivery, outcome, statusCode, error);
    return outcome;
  }

  /** The signed POST of the delivery's body (signed with the account's current secrets). */
  private post(delivery: WebhookDeliveryEntity, data: object): Promise<WebhookResponse> {
    const body = JSON.stringify({
      type: delivery.event,
      timestamp: isoTimestamp(delivery.createdAt),
      data,
    });
    return this.signedPost(delivery.accountId, delivery.id, delivery.url, body);
  }

  /**
   * One POST of `body` to `url` as delivery `id`: signed with the account's current secrets
   * (both during a rotation's overlap), the address guard at connect time, the timeout. The
   * one path of real deliveries and test deliveries.
   */
  private async signedPost(
    accountId: number,
    id: string,
    target: string,
    body: string,
  ): Promise<WebhookResponse> {
    const now = this.clock.now();
    const timestamp = Math.floor(now.getTime() / 1000);
    const secrets = await this.secrets.signingSecrets(accountId, now);
    let protocol: string;
    try {
      protocol = new URL(target).protocol;
    } catch {
      return { error: 'invalid URL' };
    }
    return postWebhook({
      url: target,
      body,
      timeoutMs: this.config.webhooks.timeoutMs,
      policy: webhookAddressPolicy(protocol, this.config.auditAllowPrivateNetworks),
      headers: {
        'content-type': 'application/json',
        'user-agent': WEBHOOK_USER_AGENT,
        'webhook-id': id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signWebhook(secrets, id, timestamp, body),
      },
    });
  }

  /**
   * A test delivery (docs/webhooks.md, "Test deliveries"): one signed POST of a `webhook.test`
   * event to `target`, sent now by the same code as real deliveries (same headers, signature,
   * address guard, timeout), with a new `webhook-id`. Not stored, not retried, not metered.
   */
  async sendTest(accountId: number, target: string, kinds: string[]): Promise<WebhookTestResult> {
    const id = newDeliveryId();
    const sentAt = this.clock.now();
    const body = JSON.stringify({
      type: WEBHOOK_TEST_EVENT,
      timestamp: isoTimestamp(sentAt),
      data: {
        test: true,
        message: 'A test delivery from your account console. No job or alert is behind it.',
        used_by: kinds,
      },
    });
    const started = process.hrtime.bigint();
    const answer = await this.signedPost(accountId, id, target, body);
    const durationMs = Math.round(Number(process.hrtime.bigint() - started) / 1e6);
    const statusCode = 'status' in answer ? answer.status : null;
    this.logger.log(
      { delivery_id: id, status_code: statusCode, error: 'error' in answer ? answer.error : null },
      'Webhook test delivery sent',
    );
    return {
      webhook_id: id,
      event: WEBHOOK_TEST_EVENT,
      url: target,
      delivered: statusCode !== null && statusCode >= 200 && statusCode < 300,
      status_code: statusCode,
      error: 'error' in answer ? answer.error : null,
      duration_ms: durationMs,
      sent_at: recordTimestamp(sentAt),
    };
  }

  /** 2xx delivered, 410 gone, else a retry while the schedule lasts, then failed. */
  private outcomeOf(
    statusCode: number | null,
    attemptsBefore: number,
  ): Exclude<AttemptOutcome, { outcome: 'skipped' }> {
    const schedule = this.config.webhooks.retryScheduleMs;
    if (statusCode !== null && statusCode >= 200 && statusCode < 300) {
      return { outcome: 'delivered', status: statusCode };
    }
    if (statusCode === 410) return { outcome: 'gone' };
    if (attemptsBefore < schedule.length) {
      return { outcome: 'retry', delayMs: schedule[attemptsBefore] };
    }
    return { outcome: 'failed' };
  }

  private logAttempt(
    delivery: WebhookDeliveryEntity,
    outcome: AttemptOutcome,
    statusCode: number | null,
    error: string | null,
  ): void {
    const logged = {
      delivery_id: delivery.id,
      job_id: delivery.jobId,
      attempt: delivery.attempts + 1,
      status_code: statusCode,
      error,
    };
    if (outcome.outcome === 'delivered') this.logger.log(logged, 'Webhook delivered');
    else this.logger.warn(logged, `Webhook attempt failed (${outcome.outcome})`);
  }

  /**
   * The `data` of a delivery's body: the job record of a job event (read when sent, so it is
   * the final record), or the data stored with the delivery (usage alerts). Null when there is
   * nothing to send (the job is gone or not ended).
   */
  private async eventData(delivery: WebhookDeliveryEntity): Promise<object | null> {
    if (delivery.jobId === null) return delivery.payload;
    return this.jobs.finalRecord(delivery.jobId, delivery.accountId);
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
