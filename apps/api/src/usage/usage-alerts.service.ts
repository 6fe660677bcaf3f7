import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig, Clock, recordTimestamp } from '@app/core';
import { AccountsService, AuthContext } from '@app/accounts';
import { UsageAlertFiringRepository, thresholdReachedData } from '@app/billing';
import { UsageAlertsHook, reachesThreshold } from '@app/gateway';
import { WebhookDeliveriesService, assertWebhookTarget, newDeliveryId } from '@app/webhooks';
import { UsageAlertThresholds } from './usage-alert-thresholds';
import { UsageAlertsRepository } from './usage-alerts.repository';

/** Thresholds of an account that never set its own. */
const DEFAULT_ALERT_THRESHOLDS = [80, 100];

/** The data of GET/PUT /account/v1/alerts. */
export interface UsageAlertsView {
  webhook_url: string | null;
  thresholds: number[];
  last_fired: Array<{ threshold: number; month: string; fired_at: string }>;
}

/** How many "fired this month" marks a process keeps before it forgets older months' ones. */
const FIRED_MARKS_MAX = 100_000;

/**
 * Usage alerts (docs/usage-history.md): the settings, and what the metering guard calls when
 * a counted call takes the month to or past a threshold. Each threshold fires once per
 * account and calendar month (the meter's, PostgreSQL's): the first call to reach it writes
 * the record and its signed delivery in one statement (the record's primary key decides
 * between concurrent calls on every instance), then the delivery is enqueued like a
 * site-audit webhook. Should that statement fail, the worker's sweep (UsageAlertsSweepService)
 * derives the alert from the meter row, so it is as durable as the count. A process
 * remembers what fired, so later calls of the month cost nothing.
 */
@Injectable()
export class UsageAlertsService implements UsageAlertsHook {
  private readonly logger = new Logger(UsageAlertsService.name);
  /** `account:month:threshold` seen fired (or firing) by this process. */
  private readonly fired = new Set<string>();

  constructor(
    private readonly repo: UsageAlertsRepository,
    private readonly thresholds: UsageAlertThresholds,
    private readonly firing: UsageAlertFiringRepository,
    private readonly deliveries: WebhookDeliveriesService,
    private readonly accounts: AccountsService,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * The metering guard's check after a counted call (UsageAlertsHook): the account's
   * thresholds from the process cache (read from PostgreSQL on a miss), and nothing more
   * unless the count reaches one of them.
   */
  counted(
    auth: AuthContext,
    used: number,
    limit: number,
    month: string,
  ): Promise<void> | undefined {
    const thresholds = this.thresholds.get(auth.accountId);
    if (thresholds === undefined) return this.loadThenCheck(auth, used, limit, month);
    if (thresholds.length === 0 || !reachesThreshold(thresholds, used, limit)) return undefined;
    return this.reached(auth, thresholds, used, limit, month);
  }

  private async loadThenCheck(
    auth: AuthContext,
    used: number,
    limit: number,
    month: string,
  ): Promise<void> {
    const epoch = this.thresholds.epoch();
    const thresholds = await this.repo.activeThresholds(auth.accountId);
    this.thresholds.set(auth.accountId, thresholds, epoch);
    if (thresholds.length > 0 && reachesThreshold(thresholds, used, limit)) {
      await this.reached(auth, thresholds, used, limit, month);
    }
  }

  private async reached(
    auth: AuthContext,
    thresholds: readonly number[],
    used: number,
    limit: number,
    month: string,
  ): Promise<void> {
    const now = this.clock.now();
    for (const threshold of thresholds) {
      if (used * 100 < threshold * limit) continue;
      const mark = `${auth.accountId}:${month}:${threshold}`;
      if (this.fired.has(mark)) continue;
      try {
        const { id, firedBefore } = await this.firing.fire(
          auth.accountId,
          month,
          threshold,
          newDeliveryId(),
          thresholdReachedData(threshold, used, limit, month),
          now,
        );
        // Not remembered when alerts turned off meanwhile: turned on again, it can still fire.
        if (id || firedBefore) this.remember(mark, month);
        if (id) {
          this.logger.log(
            { account_id: auth.accountId, threshold, api_calls_used: used, delivery_id: id },
            'Usage alert fired',
          );
          await this.deliveries.enqueueCommitted(id);
        }
      } catch (err) {
        // The call itself was counted and goes on. The worker's sweep derives the alert from
        // the meter row (also at the cap, where no later call comes); or the next call fires it.
        this.logger.warn(
          { err, account_id: auth.accountId, threshold },
          'Usage alert not recorded; the sweep will',
        );
      }
    }
  }

  async view(accountId: number): Promise<UsageAlertsView> {
    const [settings, fired] = await Promise.all([
      this.repo.find(accountId),
      this.repo.lastFired(accountId),
    ]);
    return {
      webhook_url: settings?.webhookUrl ?? null,
      thresholds: settings
        ? [...settings.thresholds].sort((a, b) => a - b)
        : DEFAULT_ALERT_THRESHOLDS,
      last_fired: fired.map((f) => ({
        threshold: f.threshold,
        month: f.month,
        fired_at: recordTimestamp(f.fired_at),
      })),
    };
  }

  /**
   * Replaces the settings (422 for a webhook URL that is not https to a public host). The
   * account's cached callers are dropped on every instance, so the new thresholds apply
   * within a second.
   */
  async replace(
    accountId: number,
    webhookUrl: string | null,
    thresholds: number[] | undefined,
  ): Promise<UsageAlertsView> {
    if (webhookUrl !== null) {
      await assertWebhookTarget(webhookUrl, this.config.auditAllowPrivateNetworks);
    }
    const sorted = [...(thresholds ?? DEFAULT_ALERT_THRESHOLDS)].sort((a, b) => a - b);
    await this.repo.save(accountId, webhookUrl, sorted, this.clock.now());
    await this.accounts.callerSettingsChanged(accountId);
    return this.view(accountId);
  }

  private remember(mark: string, month: string): void {
    if (this.fired.size >= FIRED_MARKS_MAX) {
      for (const m of this.fired) if (!m.includes(`:${month}:`)) this.fired.delete(m);
      if (this.fired.size >= FIRED_MARKS_MAX) this.fired.clear();
    }
    this.fired.add(mark);
  }
}
