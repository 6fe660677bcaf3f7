import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type Redis from 'ioredis';
import { ChannelSubscription, REDIS, RedisKeys, subscribeChannel } from '@app/redis';
import { ApiKeyCache } from './api-key-cache';

/**
 * A per-process cache of account data kept as the key cache is (the usage feature's alert
 * thresholds): it drops an account when the account's callers change on any instance, and
 * it is told when invalidation goes live or down (then it must clear and keep entries short).
 */
export interface AccountCacheFollower {
  dropAccount(accountId: number): void;
  setLive(live: boolean): void;
}

/** What one message on the invalidation channel says. */
type KeyCacheMessage = { key: string } | { account: number };

/** Longest a publisher waits for Redis before answering anyway (the fallback TTL covers it). */
const PUBLISH_TIMEOUT_MS = 1_000;

/**
 * Cross-instance invalidation of the API-key cache (ApiKeyCache) over Redis pub/sub.
 *
 * - A key revoked on any instance: its hash is published, every instance drops that entry.
 * - An account's plan or overrides changed: its id is published, every instance drops the
 *   entries of that account's keys (and what follows them: the usage-alert thresholds).
 *
 * The subscriber is a dedicated connection (a duplicate of REDIS: a subscribed connection
 * cannot run other commands), opened on module init and closed on shutdown. The channel is
 * `<REDIS_PREFIX>:api-keys:invalidate`. While the subscription is not confirmed (start-up,
 * Redis unreachable, connection lost) the cache is "not live": it is cleared and its entries
 * live at most FALLBACK_KEY_CACHE_TTL_MS, so a revocation still takes effect within 1 s.
 */
@Injectable()
export class KeyCacheInvalidation implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(KeyCacheInvalidation.name);
  readonly channel: string;
  private subscription: ChannelSubscription | null = null;
  private closing = false;
  private readonly followers: AccountCacheFollower[] = [];

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    keys: RedisKeys,
    private readonly cache: ApiKeyCache,
  ) {
    this.channel = keys.of('api-keys', 'invalidate');
  }

  /** Makes another per-process account cache follow this invalidation (call before init). */
  follow(follower: AccountCacheFollower): void {
    this.followers.push(follower);
  }

  onModuleInit(): void {
    if (!this.cache.enabled) return; // nothing cached, nothing to invalidate
    this.subscription = subscribeChannel(this.redis, this.channel, {
      live: () => this.setLive(true),
      down: (reason) => this.down(reason),
      message: (message) => this.apply(message),
    });
  }

  async onApplicationShutdown(): Promise<void> {
    this.closing = true;
    const subscription = this.subscription;
    this.subscription = null;
    await subscription?.close();
  }

  /** Drops the key here at once and tells every other instance. */
  async keyRevoked(keyHash: string): Promise<void> {
    this.cache.dropKey(keyHash);
    await this.publish({ key: keyHash });
  }

  /** Drops the account's keys here at once and tells every other instance. */
  async accountChanged(accountId: number): Promise<void> {
    this.dropAccount(accountId);
    await this.publish({ account: accountId });
  }

  /** Applies one message (also this instance's own, which is harmless). */
  apply(message: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(message);
    } catch {
      return;
    }
    if (typeof parsed !== 'object' || parsed === null) return;
    const m = parsed as Record<string, unknown>;
    if (typeof m.key === 'string') this.cache.dropKey(m.key);
    else if (typeof m.account === 'number') this.dropAccount(m.account);
  }

  private dropAccount(accountId: number): void {
    this.cache.dropAccount(accountId);
    for (const f of this.followers) f.dropAccount(accountId);
  }

  private setLive(live: boolean): void {
    this.cache.setLive(live);
    for (const f of this.followers) f.setLive(live);
  }

  private async publish(message: KeyCacheMessage): Promise<void> {
    if (!this.cache.enabled) return;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timed out')), PUBLISH_TIMEOUT_MS);
    });
    try {
      await Promise.race([this.redis.publish(this.channel, JSON.stringify(message)), timeout]);
    } catch (err) {
      // The change is in PostgreSQL already; other instances fall back to the short TTL
      // when their own subscription is down, else pick it up at their cache expiry.
      this.logger.warn(`key cache invalidation not published: ${(err as Error).message}`);
    } finally {
      clearTimeout(timer);
    }
  }

  private down(reason: string): void {
    if (this.cache.isLive && !this.closing) {
      this.logger.warn(`key cache invalidation down (${reason}); short cache TTL until back`);
    }
    this.setLive(false);
  }
}
