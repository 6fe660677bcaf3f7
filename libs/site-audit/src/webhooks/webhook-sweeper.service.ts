import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { APP_CONFIG, AppConfig, Clock } from '@app/core';
import { WebhookDeliveriesService } from './webhook-deliveries.service';

const BATCH = 100;
/** A pending delivery this late is checked against the queue (the API enqueues right after the commit). */
export const WEBHOOK_SWEEP_GRACE_MS = 60_000;

/**
 * No delivery stays pending forever: on the audit sweep interval, every worker puts back in
 * the queue the pending deliveries whose next attempt is over a minute late and that the
 * queue does not hold (crash between commit and enqueue, an attempt that threw, a lost Redis
 * key). Re-adding is idempotent: the BullMQ job id is the delivery id.
 * Runs in the worker process only (apps/worker provides it).
 */
@Injectable()
export class WebhookSweeperService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(WebhookSweeperService.name);
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<number> | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly deliveries: WebhookDeliveriesService,
    private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.tick(), this.config.audit.sweepIntervalMs);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.sweeping?.catch(() => undefined);
  }

  private async tick(): Promise<void> {
    try {
      await this.sweepOnce();
    } catch (err) {
      this.logger.error({ err }, 'Webhook sweep failed');
    }
  }

  /** One sweep (also called by tests): how many deliveries were put back in the queue. */
  sweepOnce(): Promise<number> {
    if (!this.sweeping) {
      this.sweeping = this.sweep().finally(() => {
        this.sweeping = null;
      });
    }
    return this.sweeping;
  }

  private async sweep(): Promise<number> {
    const before = new Date(this.clock.now().getTime() - WEBHOOK_SWEEP_GRACE_MS);
    const requeued = await this.deliveries.requeueOverdue(before, BATCH);
    if (requeued) this.logger.warn(`Re-enqueued ${requeued} pending webhook deliveries`);
    return requeued;
  }
}
