import { Injectable, Logger } from '@nestjs/common';
import { Clock, PeriodicTask } from '@app/core';
import { UsageAlertFiringRepository, thresholdReachedData } from '@app/billing';
import { resolveLimits } from '@app/plans';
import { WebhookDeliveriesService, newDeliveryId } from '@app/webhooks';

/** How often the sweep looks for alerts the meter rows call for and that did not fire. */
export const USAGE_ALERTS_SWEEP_INTERVAL_MS = 15_000;
/** Accounts per round (the next round takes the rest). */
const BATCH = 500;

/**
 * Usage alerts as durable as the meter (docs/usage-history.md): the API fires an alert right
 * after the meter's statement, by a second statement; when that one fails (a dropped
 * connection, a lock, the process gone), no later call may come to retry — at the cap there
 * is none. So every 15 s the worker derives the missing alerts from the meter rows: an
 * account with alerts on whose count this month (PostgreSQL's) has reached a threshold that
 * has not fired gets it now, through the same statement as the API (the primary key of
 * usage_alert_fired keeps it to one delivery whoever writes first), and the delivery is
 * enqueued (or, should Redis fail, the webhook sweep enqueues it). Runs in the worker only.
 */
@Injectable()
export class UsageAlertsSweepService extends PeriodicTask<number> {
  protected readonly logger = new Logger(UsageAlertsSweepService.name);
  protected readonly taskName = 'Usage alerts sweep';
  protected readonly intervalMs = USAGE_ALERTS_SWEEP_INTERVAL_MS;

  constructor(
    private readonly firing: UsageAlertFiringRepository,
    private readonly deliveries: WebhookDeliveriesService,
    private readonly clock: Clock,
  ) {
    super();
  }

  /** One round: how many alerts it fired. */
  protected async run(): Promise<number> {
    let fired = 0;
    for (const due of await this.firing.due(this.clock.statementTime(), BATCH)) {
      const limit = resolveLimits(due.plan, due.overrides).api_calls_per_month;
      if (limit === 'unlimited' || limit <= 0) continue;
      for (const threshold of due.reached) {
        if (due.used * 100 < threshold * limit) continue;
        const { id } = await this.firing.fire(
          due.accountId,
          due.month,
          threshold,
          newDeliveryId(),
          thresholdReachedData(threshold, due.used, limit, due.month),
          this.clock.now(),
        );
        if (!id) continue;
        fired++;
        this.logger.warn(
          { account_id: due.accountId, threshold, api_calls_used: due.used, delivery_id: id },
          'Usage alert fired by the sweep (the API did not record it)',
        );
        await this.deliveries.enqueueCommitted(id);
      }
    }
    return fired;
  }
}
