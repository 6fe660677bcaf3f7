import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig, Clock } from '@app/core';
import { ApiKeyEntity, PlanName } from '@app/database';
import { Limits, resolveLimits } from '@app/billing';
import { generateSecret, hashSecret, looksLikeKey } from './api-key-secret';
import { ApiKeysRepository } from './api-keys.repository';

/** Who is calling: set on the request by the auth guard. */
export interface AuthContext {
  keyId: number;
  keyLabel: string;
  accountId: number;
  plan: PlanName;
  limits: Limits;
}

/** A key just created, with its secret (shown in that answer only, never stored). */
export type NewApiKey = ApiKeyEntity & { key: string };

interface CacheEntry {
  auth: AuthContext | null;
  expiresAt: number;
}

const MAX_CACHE_ENTRIES = 10_000;

/**
 * API keys: creation (secret shown once), listing, revocation, and the authentication
 * lookup. Lookups are cached in process for KEY_CACHE_TTL_MS (at most 5 s), so a revoked
 * key or a plan change takes effect on every instance within that time.
 */
@Injectable()
export class ApiKeysService {
  private readonly cache = new Map<string, CacheEntry>();

  constructor(
    private readonly keys: ApiKeysRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  async create(accountId: number, label: string): Promise<NewApiKey> {
    const secret = generateSecret();
    const key = await this.keys.create(accountId, label, secret.prefix, secret.hash);
    return Object.assign(key, { key: secret.key });
  }

  list(accountId: number): Promise<ApiKeyEntity[]> {
    return this.keys.listByAccount(accountId);
  }

  /** Revokes a key (idempotent: the first revocation time is kept). Null when unknown. */
  async revoke(id: number): Promise<ApiKeyEntity | null> {
    const key = await this.keys.revoke(id);
    if (key) this.cache.delete(key.keyHash);
    return key;
  }

  /**
   * The caller behind a secret from the process cache: AuthContext or null (unknown or
   * revoked) when the cache knows, undefined when it must be looked up. Synchronous, so a
   * cache hit costs the request path no promise.
   */
  cached(secret: string): AuthContext | null | undefined {
    if (!looksLikeKey(secret)) return null;
    const hit = this.cache.get(hashSecret(secret));
    return hit && hit.expiresAt > Date.now() ? hit.auth : undefined;
  }

  /** The caller behind a secret, or null when it is unknown or revoked. */
  async authenticate(secret: string): Promise<AuthContext | null> {
    const known = this.cached(secret);
    if (known !== undefined) return known;
    const hash = hashSecret(secret);
    const now = Date.now();

    const row = await this.keys.findOwner(hash);
    const auth: AuthContext | null =
      row && !row.revoked_at
        ? {
            keyId: row.key_id,
            keyLabel: row.label,
            accountId: row.account_id,
            plan: row.plan,
            limits: resolveLimits(row.plan, row.overrides),
          }
        : null;
    if (auth) {
      // Refreshed at most once per cache period per instance: no write on the hot path.
      void this.keys.touch(auth.keyId, this.clock.now()).catch(() => undefined);
    }
    if (this.config.keyCacheTtlMs > 0) {
      if (this.cache.size >= MAX_CACHE_ENTRIES) this.evictExpired(now);
      if (this.cache.size < MAX_CACHE_ENTRIES) {
        this.cache.set(hash, { auth, expiresAt: now + this.config.keyCacheTtlMs });
      }
    }
    return auth;
  }

  private evictExpired(now: number): void {
    for (const [k, v] of this.cache) if (v.expiresAt <= now) this.cache.delete(k);
    if (this.cache.size >= MAX_CACHE_ENTRIES) this.cache.clear();
  }
}
