import { Injectable } from '@nestjs/common';
import { SERP_FEATURES, SerpFeature, TrackedKeywordEntity } from './entities';
import { Sql, SqlTx } from './sql';

/** One check of a keyword as the write path stores it (rank_checks). */
export type RankCheckInput = {
  /** YYYY-MM-DD */
  check_date: string;
  /** null = not ranked */
  position: number | null;
  landing_page?: string | null;
  gsc_clicks?: number | null;
  gsc_impressions?: number | null;
  gsc_ctr?: number | null;
  gsc_average_position?: number | null;
} & Partial<Record<SerpFeature, boolean>>;

/**
 * The one write path of rank checks, shared by the admin ingestion (RankRepository in the
 * API) and the worker's rank collection: the checks, the keyword's stored latest check and
 * the position before it, in one transaction under the keyword row's lock; the rank version
 * is bumped by the tracked_keywords triggers (migration 1765100000000).
 */
@Injectable()
export class RankChecksRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * Stores a batch of checks in one transaction: one row per (keyword, check_date), a
   * re-posted date replaces the stored one; within a batch the last entry of a date wins.
   * Returns the number of checks stored, or null when the keyword does not exist.
   */
  storeChecks(keywordId: number, checks: RankCheckInput[], now: Date): Promise<number | null> {
    return this.sql.bulkTransaction((tx) => this.storeChecksIn(tx, keywordId, checks, now));
  }

  /** `storeChecks` inside the caller's transaction (which then holds the keyword row's lock). */
  async storeChecksIn(
    tx: SqlTx,
    keywordId: number,
    checks: RankCheckInput[],
    now: Date,
  ): Promise<number | null> {
    const byDate = new Map<string, RankCheckInput>();
    for (const c of checks) byDate.set(c.check_date, c);
    const list = [...byDate.values()];
    const accountId = await tx.lockAccountRow(TrackedKeywordEntity, keywordId);
    if (accountId === null) return null;
    await this.upsertChecks(tx, keywordId, accountId, list, now);
    await this.refreshLatestCheck(tx, keywordId);
    return list.length;
  }

  /** One rank_checks row per check of `list` (one per date), inserted or replaced. */
  private async upsertChecks(
    tx: SqlTx,
    keywordId: number,
    accountId: number,
    list: RankCheckInput[],
    now: Date,
  ): Promise<void> {
    await tx.run(
      `INSERT INTO rank_checks (keyword_id, account_id, check_date, position, landing_page, gsc_clicks,
           gsc_impressions, gsc_ctr, gsc_average_position, ${SERP_FEATURES.join(', ')}, updated_at)
         SELECT $1, $2, u.* , $3::timestamptz FROM unnest(
           $4::date[], $5::int[], $6::text[], $7::int[], $8::int[], $9::float8[], $10::float8[],
           ${SERP_FEATURES.map((_, i) => `$${11 + i}::boolean[]`).join(', ')}
         ) AS u
         ON CONFLICT (keyword_id, check_date) DO UPDATE SET
           position = EXCLUDED.position, landing_page = EXCLUDED.landing_page, gsc_clicks = EXCLUDED.gsc_clicks,
           gsc_impressions = EXCLUDED.gsc_impressions, gsc_ctr = EXCLUDED.gsc_ctr,
           gsc_average_position = EXCLUDED.gsc_average_position,
           ${SERP_FEATURES.map((f) => `${f} = EXCLUDED.${f}`).join(', ')}, updated_at = EXCLUDED.updated_at`,
      [
        keywordId,
        accountId,
        now,
        list.map((c) => c.check_date),
        list.map((c) => c.position),
        list.map((c) => c.landing_page ?? null),
        list.map((c) => c.gsc_clicks ?? null),
        list.map((c) => c.gsc_impressions ?? null),
        list.map((c) => c.gsc_ctr ?? null),
        list.map((c) => c.gsc_average_position ?? null),
        ...SERP_FEATURES.map((f) => list.map((c) => c[f] ?? false)),
      ],
    );
  }

  /**
   * The keyword row keeps its newest check and the position of the one before it,
   * recomputed from the stored checks (two primary-key probes), so checks posted out of
   * date order or re-posted leave the right pair. The caller holds the row's lock.
   */
  private async refreshLatestCheck(tx: SqlTx, keywordId: number): Promise<void> {
    await tx.run(
      `UPDATE tracked_keywords k SET
           latest_check_date = l.check_date, latest_position = l.position,
           previous_position = (SELECT c.position FROM rank_checks c
                                WHERE c.keyword_id = $1 AND c.check_date < l.check_date
                                ORDER BY c.check_date DESC LIMIT 1),
           latest_landing_page = l.landing_page, latest_gsc_clicks = l.gsc_clicks,
           latest_gsc_impressions = l.gsc_impressions, latest_gsc_ctr = l.gsc_ctr,
           latest_local_pack = l.local_pack, latest_featured_snippet = l.featured_snippet,
           latest_ai_overview = l.ai_overview
         FROM (SELECT * FROM rank_checks c WHERE c.keyword_id = $1
               ORDER BY c.check_date DESC LIMIT 1) l
         WHERE k.id = $1`,
      [keywordId],
    );
  }
}
