import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { queryRows } from '@app/database';

import type { ResearchKind } from '@app/billing';
export type { ResearchKind };

export interface CachedAnswer<T> {
  payload: T;
  provider: string;
  fetchedAt: Date;
}

/**
 * Provider answers per account, kind and request key. Freshness is judged at read time
 * (fetched_at after `freshAfter`), so a plan change applies its TTL at once.
 */
@Injectable()
export class ResearchCacheRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async get<T>(
    accountId: number,
    kind: ResearchKind,
    key: string,
    freshAfter: Date,
  ): Promise<CachedAnswer<T> | null> {
    const rows: Array<{ payload: T; provider: string; fetched_at: Date }> = await this.db.query(
      `SELECT payload, provider, fetched_at FROM research_cache
       WHERE account_id = $1 AND kind = $2 AND cache_key = $3 AND fetched_at > $4`,
      [accountId, kind, key, freshAfter],
    );
    const r = rows[0];
    return r ? { payload: r.payload, provider: r.provider, fetchedAt: r.fetched_at } : null;
  }

  async put(
    accountId: number,
    kind: ResearchKind,
    key: string,
    provider: string,
    payload: unknown,
    now: Date,
  ): Promise<void> {
    await this.db.query(
      `INSERT INTO research_cache (account_id, kind, cache_key, provider, payload, fetched_at)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6)
       ON CONFLICT (account_id, kind, cache_key)
       DO UPDATE SET provider = EXCLUDED.provider, payload = EXCLUDED.payload, fetched_at = EXCLUDED.fetched_at`,
      [accountId, kind, key, provider, JSON.stringify(payload), now],
    );
  }

  /** Deletes answers of `kind` fetched before `before` (they can no longer be served). */
  async purge(kind: ResearchKind, before: Date): Promise<number> {
    const rows = await queryRows<{ '?column?': number }>(
      this.db,
      `DELETE FROM research_cache WHERE kind = $1 AND fetched_at < $2 RETURNING 1`,
      [kind, before],
    );
    return rows.length;
  }
}
