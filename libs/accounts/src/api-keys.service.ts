import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig, Clock } from '@app/core';
import { PlanName, queryRows } from '@app/database';
import { LimitOverrides, Limits, resolveLimits } from '@app/billing';
import { generateSecret, hashSecret, looksLikeKey } from './api-key-secret';

/** Who is calling: set on the request by the auth guard. */
export interface AuthContext {
  keyId: number;
  keyLabel: string;
  accountId: number;
  plan: PlanName;
  limits: Limits;
}

export interface ApiKeyView {
  id: number;
  account_id: number;
  label: string;
  prefix: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

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
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  async create(accountId: number, label: string): Promise<ApiKeyView & { key: string }> {
    const secret = generateSecret();
    const rows: ApiKeyView[] = await this.db.query(
      `INSERT INTO api_keys (account_id, label, prefix, key_hash) VALUES ($1, $2, $3, $4)
       RETURNING id, account_id, label, prefix, created_at, last_used_at, revoked_at`,
      [accountId, label, secret.prefix, secret.hash],
    );
    return { ...rows[0], key: secret.key };
  }

  async list(accountId: number): Promise<ApiKeyView[]> {
    return this.db.query(
      `SELECT id, account_id, label, prefix, created_at, last_used_at, revoked_at
       FROM api_keys WHERE account_id = $1 ORDER BY id`,
      [accountId],
    );
  }

  /** Revokes a key (idempotent: the first revocation time is kept). Null when unknown. */
  async revoke(id: number): Promise<ApiKeyView | null> {
    const rows = await queryRows<ApiKeyView & { key_hash: string }>(
      this.db,
      `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, now()) WHERE id = $1
       RETURNING id, account_id, label, prefix, created_at, last_used_at, revoked_at, key_hash`,
      [id],
    );
    if (!rows.length) return null;
    const { key_hash, ...view } = rows[0];
    this.cache.delete(key_hash);
    return view;
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

    const rows: Array<{
      key_id: number;
      label: string;
      revoked_at: Date | null;
      account_id: number;
      plan: PlanName;
      overrides: LimitOverrides;
    }> = await this.db.query(
      `SELECT k.id AS key_id, k.label, k.revoked_at, a.id AS account_id, a.plan, a.overrides
       FROM api_keys k JOIN accounts a ON a.id = k.account_id
       WHERE k.key_hash = $1`,
      [hash],
    );
    const row = rows[0];
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
      void this.db
        .query(`UPDATE api_keys SET last_used_at = $2 WHERE id = $1`, [
          auth.keyId,
          this.clock.now(),
        ])
        .catch(() => undefined);
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
