import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@app/core';
import type { Limits, PlanName } from '@app/plans';

/** Who is calling: set on the request by the auth guard. */
export interface AuthContext {
  /** The API key, or 0 for a hosted-MCP connection (OAuth token). */
  keyId: number;
  keyLabel: string;
  accountId: number;
  plan: PlanName;
  limits: Limits;
  /** The hosted-MCP connection (OAuth grant) behind the call, or 0 for an API key. */
  grantId: number;
}

interface CacheEntry {
  /** The caller, or null for an unknown or revoked key (negative entries are cached too). */
  auth: AuthContext | null;
  expiresAt: number;
}

const MAX_CACHE_ENTRIES = 10_000;

/**
 * How long an entry lives while cross-instance invalidation is down (not yet subscribed,
 * or the subscriber connection lost): a revocation then still takes effect within 1 s.
 */
export const FALLBACK_KEY_CACHE_TTL_MS = 1_000;

/**
 * The per-process API-key lookup cache: key hash → caller, for KEY_CACHE_TTL_MS. Entries
 * are dropped early by KeyCacheInvalidation (a key revoked, an account's plan or overrides
 * changed on any instance). While that invalidation is not live, entries live at most
 * FALLBACK_KEY_CACHE_TTL_MS, and going live or down clears the cache (messages may have
 * been missed in between).
 */
@Injectable()
export class ApiKeyCache {
  private readonly entries = new Map<string, CacheEntry>();
  private live = false;
  /** Counts invalidations, so a lookup that raced one does not cache what it read before. */
  private generation = 0;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** False when caching is off (KEY_CACHE_TTL_MS=0). */
  get enabled(): boolean {
    return this.config.keyCacheTtlMs > 0;
  }

  /** Lifetime of a new entry: the configured TTL while invalidation is live, else shorter. */
  get ttlMs(): number {
    const ttl = this.config.keyCacheTtlMs;
    return this.live ? ttl : Math.min(ttl, FALLBACK_KEY_CACHE_TTL_MS);
  }

  get isLive(): boolean {
    return this.live;
  }

  /** The cached caller (null: known unknown or revoked), undefined on a miss or expiry. */
  get(hash: string, now = Date.now()): AuthContext | null | undefined {
    const hit = this.entries.get(hash);
    return hit && hit.expiresAt > now ? hit.auth : undefined;
  }

  /** Where invalidation stands; pass it back to `set` after the lookup. */
  epoch(): number {
    return this.generation;
  }

  /**
   * Caches a lookup's result, unless an invalidation arrived since `epoch` (taken before the
   * lookup read PostgreSQL): the row read may predate the change it announced.
   */
  set(hash: string, auth: AuthContext | null, epoch: number, now = Date.now()): void {
    if (!this.enabled || epoch !== this.generation) return;
    if (this.entries.size >= MAX_CACHE_ENTRIES) this.evictExpired(now);
    if (this.entries.size < MAX_CACHE_ENTRIES) {
      this.entries.set(hash, { auth, expiresAt: now + this.ttlMs });
    }
  }

  /** Forgets one key (revoked). */
  dropKey(hash: string): void {
    this.generation++;
    this.entries.delete(hash);
  }

  /** Forgets every key of an account (plan or overrides changed). */
  dropAccount(accountId: number): void {
    this.generation++;
    for (const [hash, entry] of this.entries) {
      if (entry.auth?.accountId === accountId) this.entries.delete(hash);
    }
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }

  /** Invalidation went live or down: either way, what is cached may have missed messages. */
  setLive(live: boolean): void {
    if (live === this.live) return;
    this.live = live;
    this.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  private evictExpired(now: number): void {
    for (const [k, v] of this.entries) if (v.expiresAt <= now) this.entries.delete(k);
    if (this.entries.size >= MAX_CACHE_ENTRIES) this.entries.clear();
  }
}
