import { Injectable } from '@nestjs/common';
import { ResearchCacheEntity, ResearchKind, Sql } from '@app/database';

export type { ResearchKind };

/** A cached provider answer (the research_cache row's payload, provider and age). */
type CachedAnswer<T> = Pick<ResearchCacheEntity, 'provider' | 'fetchedAt'> & { payload: T };

/**
 * Provider answers per account, kind and request key (table research_cache). Freshness is
 * judged at read time (fetched_at after `freshAfter`), so a plan change applies its TTL at
 * once.
 */
@Injectable()
export class ResearchCacheRepository {
  constructor(private readonly sql: Sql) {}

  async get<T>(
    accountId: number,
    kind: ResearchKind,
    key: string,
    freshAfter: Date,
  ): Promise<CachedAnswer<T> | null> {
    const row = await this.sql.one<CachedAnswer<T>>(
      `SELECT payload, provider, fetched_at AS "fetchedAt" FROM research_cache
       WHERE account_id = $1 AND kind = $2 AND cache_key = $3 AND fetched_at > $4`,
      [accountId, kind, key, freshAfter],
    );
    return row ?? null;
  }

  async put(
    accountId: number,
    kind: ResearchKind,
    key: string,
    provider: string,
    payload: unknown,
    now: Date,
  ): Promise<void> {
    await this.sql.run(
      `INSERT INTO research_cache (account_id, kind, cache_key, provider, payload, fetched_at)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6)
       ON CONFLICT (account_id, kind, cache_key)
       DO UPDATE SET provider = EXCLUDED.provider, payload = EXCLUDED.payload, fetched_at = EXCLUDED.fetched_at`,
      [accountId, kind, key, provider, JSON.stringify(payload), now],
    );
  }

  /** Deletes answers of `kind` fetched before `before` (they can no longer be served). */
  async purge(kind: ResearchKind, before: Date): Promise<number> {
    const rows = await this.sql.rows(
      `DELETE FROM research_cache WHERE kind = $1 AND fetched_at < $2 RETURNING 1`,
      [kind, before],
    );
    return rows.length;
  }
}
