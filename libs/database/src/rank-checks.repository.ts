import { Injectable } from '@nestjs/common';
import { COUNTRY_ALPHA3 } from '@app/core';
import { SERP_FEATURES, SerpFeature, TrackedKeywordEntity } from './entities';
import { Sql, SqlScope, SqlTx } from './sql';

/**
 * The Search Console property of a rank project (alias `rp`), as a LATERAL subquery `prop`:
 * the account's property whose site is the project's domain, `sc-domain:<domain>` first,
 * else a URL-prefix property on the domain or its www host (the lowest id first).
 */
const PROPERTY_OF_PROJECT = `LATERAL (
    SELECT p.id FROM gsc_properties p
    WHERE p.account_id = rp.account_id
      AND (p.property_uri = 'sc-domain:' || lower(rp.domain)
           OR (p.property_uri ~* '^https?://'
               AND lower(split_part(split_part(p.property_uri, '://', 2), '/', 1))
                   IN (lower(rp.domain), 'www.' || lower(rp.domain))))
    ORDER BY (p.property_uri LIKE 'sc-domain:%') DESC, p.id
    LIMIT 1) prop`;

/**
 * Sets the Search Console figures of the checks in `targets` (keyword_id, check_date,
 * property_id: a CTE the caller writes before this text) from the property's facts of that
 * date (docs/gsc-sync.md): query = keyword case-insensitive, country = the keyword's
 * country as Search Console's alpha-3 code ($A2/$A3: the table), device = the keyword's
 * (`mobile` includes tablet). A date without any fact on the property is not synced: null
 * figures. Only changed checks are written; a changed check that is its keyword's latest
 * also updates the keyword row (its rendered entry and the rank version follow, by trigger).
 */
const APPLY_FIGURES_SQL = (a2: string, a3: string) => `
  , kw AS (
    SELECT DISTINCT t.keyword_id, t.check_date, t.property_id, lower(k.keyword) AS q,
           m.a3 AS country, k.device
    FROM targets t
    JOIN tracked_keywords k ON k.id = t.keyword_id
    LEFT JOIN unnest(${a2}::text[], ${a3}::text[]) AS m(a2, a3) ON m.a2 = upper(k.country)
  ), days AS (
    SELECT DISTINCT property_id, check_date,
           EXISTS (SELECT 1 FROM gsc_daily_rollups r
                   WHERE r.property_id = kw.property_id AND r.dim = 'date' AND r.date = kw.check_date
                     AND r.key = to_char(kw.check_date, 'YYYY-MM-DD')) AS synced
    FROM kw
  ), facts AS (
    SELECT g.property_id, g.date, lower(g.query) AS q, g.country,
           CASE WHEN g.device = 'tablet' THEN 'mobile' ELSE g.device END AS device,
           sum(g.clicks) AS clicks, sum(g.impressions) AS impressions,
           sum(g.position * g.impressions) AS pw
    FROM days d
    JOIN gsc_rows g ON g.property_id = d.property_id AND g.date = d.check_date
    WHERE d.synced AND lower(g.query) IN (SELECT q FROM kw)
    GROUP BY 1, 2, 3, 4, 5
  ), fig AS (
    SELECT kw.keyword_id, kw.check_date,
           CASE WHEN d.synced THEN COALESCE(f.clicks, 0)::int END AS clicks,
           CASE WHEN d.synced THEN COALESCE(f.impressions, 0)::int END AS impressions,
           CASE WHEN f.impressions > 0 THEN round(f.clicks * 100.0 / f.impressions, 2)::float8 END AS ctr,
           CASE WHEN f.impressions > 0 THEN round((f.pw / f.impressions)::numeric, 2)::float8 END AS pos
    FROM kw
    JOIN days d ON d.property_id = kw.property_id AND d.check_date = kw.check_date
    LEFT JOIN facts f ON f.property_id = kw.property_id AND f.date = kw.check_date AND f.q = kw.q
                     AND f.country = kw.country AND f.device = kw.device
  ), upd AS (
    UPDATE rank_checks c SET gsc_clicks = fig.clicks, gsc_impressions = fig.impressions,
           gsc_ctr = fig.ctr, gsc_average_position = fig.pos
    FROM fig
    WHERE c.keyword_id = fig.keyword_id AND c.check_date = fig.check_date
      AND (c.gsc_clicks, c.gsc_impressions, c.gsc_ctr, c.gsc_average_position)
          IS DISTINCT FROM (fig.clicks, fig.impressions, fig.ctr, fig.pos)
    RETURNING c.keyword_id, c.check_date, c.gsc_clicks, c.gsc_impressions, c.gsc_ctr
  )
  UPDATE tracked_keywords k SET latest_gsc_clicks = upd.gsc_clicks,
         latest_gsc_impressions = upd.gsc_impressions, latest_gsc_ctr = upd.gsc_ctr
  FROM upd
  WHERE k.id = upd.keyword_id AND k.latest_check_date = upd.check_date`;

const ALPHA2 = [...COUNTRY_ALPHA3.keys()];
const ALPHA3 = [...COUNTRY_ALPHA3.values()].map((c) => c.toLowerCase());

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
    const withoutFigures = list.filter(
      (c) =>
        c.gsc_clicks == null &&
        c.gsc_impressions == null &&
        c.gsc_ctr == null &&
        c.gsc_average_position == null,
    );
    if (withoutFigures.length) {
      await this.applyFiguresOfKeyword(
        tx,
        keywordId,
        withoutFigures.map((c) => c.check_date),
      );
    }
    await this.refreshLatestCheck(tx, keywordId);
    return list.length;
  }

  /**
   * A check posted without Search Console figures takes them from the synced facts of its
   * date (the rank collection's checks; an import that posts figures keeps them).
   */
  private async applyFiguresOfKeyword(tx: SqlScope, keywordId: number, dates: string[]) {
    await tx.run(
      `WITH targets AS (
         SELECT k.id AS keyword_id, d.check_date, prop.id AS property_id
         FROM tracked_keywords k
         JOIN rank_projects rp ON rp.id = k.project_id
         CROSS JOIN unnest($1::date[]) AS d(check_date)
         CROSS JOIN ${PROPERTY_OF_PROJECT}
         WHERE k.id = $2)
       ${APPLY_FIGURES_SQL('$3', '$4')}`,
      [dates, keywordId, ALPHA2, ALPHA3],
    );
  }

  /**
   * The Search Console sync replaced a day of a property's facts: the checks of that date of
   * every keyword whose project's property it is take their figures again (in the sync's
   * transaction, so facts and figures change together; docs/gsc-sync.md).
   */
  async applySearchConsoleDay(tx: SqlScope, propertyId: number, day: string): Promise<void> {
    await tx.run(
      `WITH targets AS (
         SELECT c.keyword_id, c.check_date, prop.id AS property_id
         FROM gsc_properties gp
         JOIN rank_projects rp ON rp.account_id = gp.account_id
         CROSS JOIN ${PROPERTY_OF_PROJECT}
         JOIN tracked_keywords k ON k.project_id = rp.id
         JOIN rank_checks c ON c.keyword_id = k.id AND c.check_date = $2::date
         WHERE gp.id = $1 AND prop.id = gp.id)
       ${APPLY_FIGURES_SQL('$3', '$4')}`,
      [propertyId, day, ALPHA2, ALPHA3],
    );
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
