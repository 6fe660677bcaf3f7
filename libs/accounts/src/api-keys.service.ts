import { Injectable } from '@nestjs/common';
import { ApiError, Clock } from '@app/core';
import { ApiKeyEntity } from '@app/database';
import { hasApiAccess, resolveLimits } from '@app/plans';
import { generateSecret, hashSecret, looksLikeKey } from './api-key-secret';
import { ApiKeysRepository } from './api-keys.repository';
import { AccountsRepository } from './accounts.repository';
import { ApiKeyCache, AuthContext } from './api-key-cache';
import { KeyCacheInvalidation } from './key-cache-invalidation';

/** A key just created, with its secret (shown in that answer only, never stored). */
export type NewApiKey = ApiKeyEntity & { key: string };

/** Most unrevoked keys an account may create for itself (keys made by operators count too). */
const MAX_ACTIVE_KEYS = 25;

/**
 * API keys: creation (secret shown once), listing, revocation, and the authentication
 * lookup. Lookups are cached in process (ApiKeyCache, KEY_CACHE_TTL_MS); a revocation or a
 * plan change is pushed to every instance through KeyCacheInvalidation (Redis pub/sub), so
 * it takes effect everywhere within 1 second.
 */
@Injectable()
export class ApiKeysService {
  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly accounts: AccountsRepository,
    private readonly cache: ApiKeyCache,
    private readonly invalidation: KeyCacheInvalidation,
    private readonly clock: Clock,
  ) {}

  /** A key made by an operator (admin API): no plan rule, no cap. */
  async create(accountId: number, label: string): Promise<NewApiKey> {
    const secret = generateSecret();
    const key = await this.keys.create(accountId, label, secret.prefix, secret.hash);
    return Object.assign(key, { key: secret.key });
  }

  /**
   * A key the account makes for itself (account area): Pro and Agency only (403
   * FORBIDDEN), at most MAX_ACTIVE_KEYS unrevoked keys whoever made them (422
   * VALIDATION_ERROR), exact under concurrency.
   */
  async createOwn(accountId: number, label: string): Promise<NewApiKey> {
    const account = await this.accounts.find(accountId);
    if (!account) throw ApiError.notFound('Account');
    if (!hasApiAccess(account.plan)) {
      throw new ApiError(
        'FORBIDDEN',
        `The ${account.plan} plan has no API access: API keys need the Pro or Agency plan.`,
      );
    }
    const secret = generateSecret();
    const key = await this.keys.createWithinLimit(
      accountId,
      MAX_ACTIVE_KEYS,
      label,
      secret.prefix,
      secret.hash,
    );
    if (key === undefined) throw ApiError.notFound('Account');
    if (key === null) {
      throw ApiError.validation(
        'label',
        `An account can have at most ${MAX_ACTIVE_KEYS} active API keys. Revoke one first.`,
      );
    }
    return Object.assign(key, { key: secret.key });
  }

  /** The account's keys: oldest first (admin API) or newest first (account area). */
  list(accountId: number, newestFirst = false): Promise<ApiKeyEntity[]> {
    return this.keys.listByAccount(accountId, newestFirst);
  }

  /**
   * Revokes a key (idempotent: the first revocation time is kept) and drops it from the key
   * cache of every instance. With `accountId`, only a key of that account. Null when unknown.
   */
  async revoke(id: number, accountId?: number): Promise<ApiKeyEntity | null> {
    const key = await this.keys.revoke(id, accountId);
    if (key) await this.invalidation.keyRevoked(key.keyHash);
    return key;
  }

  /**
   * What a secret is looked up by (its SHA-256, hashed once per request), or null when it
   * cannot be a key at all.
   */
  hashOf(secret: string): string | null {
    return looksLikeKey(secret) ? hashSecret(secret) : null;
  }

  /**
   * The caller behind a key hash from the process cache: AuthContext or null (unknown or
   * revoked) when the cache knows, undefined when it must be looked up (`lookup`).
   * Synchronous, so a cache hit costs the request path no promise.
   */
  cached(hash: string): AuthContext | null | undefined {
    return this.cache.get(hash);
  }

  /** The caller behind a secret, or null when it is unknown or revoked. */
  async authenticate(secret: string): Promise<AuthContext | null> {
    const hash = this.hashOf(secret);
    if (hash === null) return null;
    const known = this.cached(hash);
    return known !== undefined ? known : this.lookup(hash);
  }

  /** The caller behind a key hash the cache does not know, from PostgreSQL (then cached). */
  async lookup(hash: string): Promise<AuthContext | null> {
    const epoch = this.cache.epoch();
    const row = await this.keys.findOwner(hash);
    const auth: AuthContext | null =
      row && !row.revoked_at
        ? {
            keyId: row.key_id,
            keyLabel: row.label,
            accountId: row.account_id,
            plan: row.plan,
            limits: resolveLimits(row.plan, row.overrides),
            grantId: 0,
          }
        : null;
    if (auth) {
      // Refreshed at most once per cache period per instance: no write on the hot path.
      void this.keys.touch(auth.keyId, this.clock.now()).catch(() => undefined);
    }
    this.cache.set(hash, auth, epoch);
    return auth;
  }
}
