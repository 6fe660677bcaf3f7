import { ManualClock, type AppConfig } from '@app/core';
import type {
  AccountCacheFollower,
  AccountsService,
  AuthContext,
  KeyCacheInvalidation,
} from '@app/accounts';
import type { UsageAlertFiringRepository } from '@app/billing';
import type { WebhookDeliveriesService } from '@app/webhooks';
import { UsageAlertThresholds } from './usage-alert-thresholds';
import { UsageAlertsService } from './usage-alerts.service';
import type { UsageAlertsRepository } from './usage-alerts.repository';

/** A KeyCacheInvalidation stand-in that records its followers. */
function invalidation(): { followers: AccountCacheFollower[]; port: KeyCacheInvalidation } {
  const followers: AccountCacheFollower[] = [];
  const port = { follow: (f: AccountCacheFollower) => followers.push(f) };
  return { followers, port: port as unknown as KeyCacheInvalidation };
}

const config = (keyCacheTtlMs: number) => ({ keyCacheTtlMs }) as AppConfig;

describe('UsageAlertThresholds (the per-process cache the metering check reads)', () => {
  it('follows the key-cache invalidation: an account dropped, everything cleared on live/down', () => {
    const inv = invalidation();
    const cache = new UsageAlertThresholds(config(60_000), inv.port);
    expect(inv.followers).toEqual([cache]);
    cache.setLive(true);
    cache.set(1, [80, 100], cache.epoch(), 0);
    cache.set(2, [], cache.epoch(), 0);
    expect(cache.get(1, 10)).toEqual([80, 100]);
    expect(cache.get(2, 10)).toEqual([]);
    inv.followers[0].dropAccount(1);
    expect(cache.get(1, 10)).toBeUndefined();
    expect(cache.get(2, 10)).toEqual([]);
    inv.followers[0].setLive(false);
    expect(cache.get(2, 10)).toBeUndefined();
  });

  it('keeps an entry KEY_CACHE_TTL_MS while live, at most 1 s while not, never with TTL 0', () => {
    const live = new UsageAlertThresholds(config(60_000), invalidation().port);
    live.setLive(true);
    live.set(1, [50], live.epoch(), 0);
    expect(live.get(1, 59_999)).toEqual([50]);
    expect(live.get(1, 60_000)).toBeUndefined();
    const down = new UsageAlertThresholds(config(60_000), invalidation().port);
    down.set(1, [50], down.epoch(), 0);
    expect(down.get(1, 999)).toEqual([50]);
    expect(down.get(1, 1_000)).toBeUndefined();
    const off = new UsageAlertThresholds(config(0), invalidation().port);
    off.set(1, [50], off.epoch(), 0);
    expect(off.get(1, 0)).toBeUndefined();
  });

  it('does not cache a read that raced an invalidation', () => {
    const cache = new UsageAlertThresholds(config(60_000), invalidation().port);
    const epoch = cache.epoch();
    cache.dropAccount(1);
    cache.set(1, [80], epoch, 0);
    expect(cache.get(1, 1)).toBeUndefined();
  });
});

describe('UsageAlertsService.counted (the metering guard’s alert check)', () => {
  const auth = { accountId: 7 } as AuthContext;

  function service(thresholds: number[]) {
    const cache = new UsageAlertThresholds(config(60_000), invalidation().port);
    const repo = { activeThresholds: jest.fn(async () => thresholds) };
    const firing = {
      fire: jest.fn(async (..._args: unknown[]) => ({ id: 'msg_1', firedBefore: false })),
    };
    const deliveries = { enqueueCommitted: jest.fn(async () => undefined) };
    const alerts = new UsageAlertsService(
      repo as unknown as UsageAlertsRepository,
      cache,
      firing as unknown as UsageAlertFiringRepository,
      deliveries as unknown as WebhookDeliveriesService,
      {} as AccountsService,
      new ManualClock(new Date('2026-11-20T10:00:00Z')),
      config(60_000),
    );
    return { alerts, repo, firing, deliveries };
  }

  it('reads the thresholds once, then answers synchronously (no promise) below them', async () => {
    const { alerts, repo, firing } = service([80, 100]);
    await alerts.counted(auth, 10, 100, '2026-11-01');
    expect(repo.activeThresholds).toHaveBeenCalledTimes(1);
    expect(alerts.counted(auth, 79, 100, '2026-11-01')).toBeUndefined();
    expect(repo.activeThresholds).toHaveBeenCalledTimes(1);
    expect(firing.fire).not.toHaveBeenCalled();
  });

  it('fires and enqueues each threshold reached once, the first time only', async () => {
    const { alerts, firing, deliveries } = service([80, 100]);
    await alerts.counted(auth, 80, 100, '2026-11-01');
    expect(firing.fire).toHaveBeenCalledTimes(1);
    expect(firing.fire.mock.calls[0].slice(0, 3)).toEqual([7, '2026-11-01', 80]);
    expect(deliveries.enqueueCommitted).toHaveBeenCalledWith('msg_1');
    await alerts.counted(auth, 81, 100, '2026-11-01');
    expect(firing.fire).toHaveBeenCalledTimes(1);
    await alerts.counted(auth, 100, 100, '2026-11-01');
    expect(firing.fire).toHaveBeenCalledTimes(2);
  });

  it('with alerts off (no thresholds) does nothing after the one read', async () => {
    const { alerts, repo, firing } = service([]);
    await alerts.counted(auth, 100, 100, '2026-11-01');
    expect(alerts.counted(auth, 100, 100, '2026-11-01')).toBeUndefined();
    expect(repo.activeThresholds).toHaveBeenCalledTimes(1);
    expect(firing.fire).not.toHaveBeenCalled();
  });
});
