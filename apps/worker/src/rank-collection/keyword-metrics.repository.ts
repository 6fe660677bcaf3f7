import { Injectable } from '@nestjs/common';
import { Sql } from '@app/database';

/** A tracked keyword whose metrics are due. */
export interface MetricsDueRow {
  id: number;
  account_id: number;
  keyword: string;
  country: string;
  language: string;
}

/** Metrics to store for one keyword (null figures: the provider had none). */
export interface MetricsUpdate {
  id: number;
  difficulty: number | null;
  search_volume: number | null;
  cpc: number | null;
}

/** Statements of the tracked keywords' metrics refresh (docs/rank-collection.md). */
@Injectable()
export class KeywordMetricsRepository {
  constructor(private readonly sql: Sql) {}

  /** Keywords of tracking projects never fetched or fetched before `before`, by market. */
  due(before: Date, limit: number): Promise<MetricsDueRow[]> {
    return this.sql.rows<MetricsDueRow>(
      `SELECT k.id, k.account_id, k.keyword, k.country, k.language FROM tracked_keywords k
       JOIN rank_projects p ON p.id = k.project_id AND p.tracking
       WHERE k.status IN ('active', 'pending')
         AND (k.metrics_refreshed_at IS NULL OR k.metrics_refreshed_at < $1)
       ORDER BY k.country, k.language, k.id LIMIT $2`,
      [before, limit],
    );
  }

  /**
   * Stores fetched metrics (keeping a stored figure the provider did not give), marks every
   * asked keyword refreshed, and adds the call's cost to the spend ledger, split over the
   * accounts by their keywords: one transaction.
   */
  store(
    asked: MetricsDueRow[],
    updates: MetricsUpdate[],
    spend: { day: string; endpoint: string; usd: number },
    now: Date,
  ): Promise<void> {
    return this.sql.transaction(async (tx) => {
      await tx.run(
        `UPDATE tracked_keywords k SET difficulty = COALESCE(u.difficulty, k.difficulty),
           search_volume = COALESCE(u.search_volume, k.search_volume), cpc = COALESCE(u.cpc, k.cpc),
           updated_at = $4
         FROM unnest($1::int[], $2::int[], $3::int[], $5::numeric[]) AS u(id, difficulty, search_volume, cpc)
         WHERE k.id = u.id`,
        [
          updates.map((u) => u.id),
          updates.map((u) => u.difficulty),
          updates.map((u) => u.search_volume),
          now,
          updates.map((u) => u.cpc),
        ],
      );
      await tx.run(
        `UPDATE tracked_keywords SET metrics_refreshed_at = $2 WHERE id = ANY($1::int[])`,
        [asked.map((a) => a.id), now],
      );
      const share = spend.usd / asked.length;
      await tx.run(
        `INSERT INTO provider_spend AS s (account_id, day, endpoint, tasks, usd)
         SELECT r.account_id, $1::date, $2, 1, round(count(*) * $4::numeric, 6)
         FROM unnest($3::int[]) AS r(account_id) GROUP BY r.account_id
         ON CONFLICT (account_id, day, endpoint) DO UPDATE SET
           tasks = s.tasks + EXCLUDED.tasks, usd = s.usd + EXCLUDED.usd`,
        [spend.day, spend.endpoint, asked.map((a) => a.account_id), share],
      );
    });
  }
}
