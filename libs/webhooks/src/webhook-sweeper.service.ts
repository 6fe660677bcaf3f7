import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig, Clock, PeriodicTask } from '@app/core';
import { WebhookDeliveriesService } from './webhook-deliveries.service';

const BATCH = 100;
/** A pending delivery this late is checked against the queue (the API enqueues right after the commit). */
const WEBHOOK_SWEEP_GRACE_MS = 60_000;

/**
 * No delivery stays pending forever: on the audit sweep interval, every worker puts back in
 * the queue the pending deliveries whose next attempt is over a minute late and that the
 * queue does not hold (crash between commit and enqueue, an attempt that threw, a lost Redis
 * key). Re-adding is idempotent: the BullMQ job id is the delivery id.
 * Runs in the worker process only (apps/worker provides it).
 */
@Injectable()
export class WebhookSweeperService extends PeriodicTask<number> {
  protected readonly logger = new Logger(WebhookSweeperService.name);
  protected readonly taskName = 'Webhook sweep';

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly deliveries: WebhookDeliveriesService,
    private readonly clock: Clock,
  ) {
    super();
  }

  protected get intervalMs(): number {
    return this.config.audit.sweepIntervalMs;
  }

  /** One round: how many deliveries were put back in the queue. */
  protected async run(): Promise<number> {
    const before = new Date(this.clock.now().getTime() - WEBHOOK_SWEEP_GRACE_MS);
    const requeued = await this.deliveries.requeueOverdue(before, BATCH);
    if (requeued) this.logger.warn(`Re-enqueued ${requeued} pending webhook deliveries`);
    return requeued;
  }
}
