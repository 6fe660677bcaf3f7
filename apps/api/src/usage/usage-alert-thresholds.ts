import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@app/core';
import {
  AccountCacheFollower,
  FALLBACK_KEY_CACHE_TTL_MS,
  KeyCacheInvalidation,
} from '@app/accounts';

interface Entry {
  thresholds: readonly number[];
  expiresAt: number;
}

const MAX_ENTRIES = 10_000;

/**
 * The per-process cache of each account's usage-alert thresholds (empty while alerts are off:
 * no webhook_url), which the metering guard's alert check reads on every counted call. It
 * lives as the API-key cache does (KEY_CACHE_TTL_MS; FALLBACK_KEY_CACHE_TTL_MS while
 * cross-instance invalidation is down) and follows the same invalidation, so a settings
 * change (AccountsService.callerSettingsChanged) reaches every instance within a second.
 */
@Injectable()
export class UsageAlertThresholds implements AccountCacheFollower {
  private readonly entries = new Map<number, Entry>();
  private live = false;
  /** Counts invalidations, so a load that raced one does not cache what it read before. */
  private generation = 0;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    invalidation: KeyCacheInvalidation,
  ) {
    invalidation.follow(this);
  }

  /** The account's thresholds when cached, else undefined (load them). */
  get(accountId: number, now = Date.now()): readonly number[] | undefined {
    const hit = this.entries.get(accountId);
    return hit && hit.expiresAt > now ? hit.thresholds : undefined;
  }

  /** Where invalidation stands; pass it back to `set` after reading PostgreSQL. */
  epoch(): number {
    return this.generation;
  }

  set(accountId: number, thresholds: readonly number[], epoch: number, now = Date.now()): void {
    const ttl = this.live
      ? this.config.keyCacheTtlMs
      : Math.min(this.config.keyCacheTtlMs, FALLBACK_KEY_CACHE_TTL_MS);
    if (ttl <= 0 || epoch !== this.generation) return;
    if (this.entries.size >= MAX_ENTRIES) this.evictExpired(now);
    if (this.entries.size < MAX_ENTRIES) {
      this.entries.set(accountId, { thresholds, expiresAt: now + ttl });
    }
  }

  dropAccount(accountId: number): void {
    this.generation++;
    this.entries.delete(accountId);
  }

  setLive(live: boolean): void {
    if (live === this.live) return;
    this.live = live;
    this.generation++;
    this.entries.clear();
  }

  private evictExpired(now: number): void {
    for (const [k, v] of this.entries) if (v.expiresAt <= now) this.entries.delete(k);
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
  }
}
