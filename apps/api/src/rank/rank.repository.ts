import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { SERP_FEATURES, SerpFeature } from '@app/database';

export { SERP_FEATURES };
export type { SerpFeature };

export interface KeywordRow {
  id: number;
  keyword: string;
  difficulty: number | null;
  search_volume: number | null;
  cpc: string | null;
  country: string;
  language: string;
  device: string;
  status: string;
  project_id: number;
  project_domain: string;
  project_name: string;
  last_checked: string | null;
  current_position: number | null;
  previous_position: number | null;
  landing_page: string | null;
  gsc_clicks: number | null;
  gsc_impressions: number | null;
  gsc_ctr: number | null;
  local_pack: boolean | null;
  featured_snippet: boolean | null;
  ai_overview: boolean | null;
}

export type CheckRow = {
  check_date: string;
  position: number | null;
  previous_position: number | null;
  landing_page: string | null;
  gsc_clicks: number | null;
  gsc_impressions: number | null;
  gsc_ctr: number | null;
  gsc_average_position: number | null;
} & Record<SerpFeature, boolean>;

export interface KeywordHeadRow {
  id: number;
  keyword: string;
  project_id: number;
  domain: string;
  project: string;
}

/** Reads of /rank/keywords and /rank/history. Ownership is part of every statement. */
@Injectable()
export class RankRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async projectOwned(accountId: number, projectId: number): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      `SELECT 1 FROM rank_projects WHERE id = $1 AND account_id = $2`,
      [projectId, accountId],
    );
    return rows.length > 0;
  }

  /**
   * The account's keywords (optionally of one project) ordered by project id, then keyword
   * id, each with its latest check on or before `today` and the check before that.
   */
  async listKeywords(
    accountId: number,
    projectId: number | null,
    limit: number,
    today: string,
  ): Promise<KeywordRow[]> {
    return this.db.query(
      `SELECT k.id, k.keyword, k.difficulty, k.search_volume, k.cpc, k.country, k.language, k.device, k.status,
              p.id AS project_id, p.domain AS project_domain, p.name AS project_name,
              to_char(c1.check_date, 'YYYY-MM-DD') AS last_checked,
              c1.position AS current_position, c2.position AS previous_position,
              c1.landing_page, c1.gsc_clicks, c1.gsc_impressions, c1.gsc_ctr,
              c1.local_pack, c1.featured_snippet, c1.ai_overview
       FROM tracked_keywords k
       JOIN rank_projects p ON p.id = k.project_id AND p.account_id = k.account_id
       LEFT JOIN LATERAL (
         SELECT * FROM rank_checks c
         WHERE c.keyword_id = k.id AND c.check_date <= $4::date
         ORDER BY c.check_date DESC LIMIT 1
       ) c1 ON true
       LEFT JOIN LATERAL (
         SELECT c.position FROM rank_checks c
         WHERE c.keyword_id = k.id AND c.check_date < c1.check_date
         ORDER BY c.check_date DESC LIMIT 1
       ) c2 ON true
       WHERE k.account_id = $1 AND ($2::int IS NULL OR k.project_id = $2::int)
       ORDER BY k.project_id, k.id
       LIMIT $3`,
      [accountId, projectId, limit, today],
    );
  }

  async keywordHead(accountId: number, keywordId: number): Promise<KeywordHeadRow | null> {
    const rows: KeywordHeadRow[] = await this.db.query(
      `SELECT k.id, k.keyword, p.id AS project_id, p.domain, p.name AS project
       FROM tracked_keywords k JOIN rank_projects p ON p.id = k.project_id
       WHERE k.id = $1 AND k.account_id = $2`,
      [keywordId, accountId],
    );
    return rows[0] ?? null;
  }

  /**
   * Checks in [from, today], newest first; previous_position is the check before each one
   * (also when that check lies before the window).
   */
  async history(
    accountId: number,
    keywordId: number,
    from: string,
    today: string,
  ): Promise<CheckRow[]> {
    return this.db.query(
      `SELECT to_char(h.check_date, 'YYYY-MM-DD') AS check_date, h.position, h.previous_position,
              h.landing_page, h.gsc_clicks, h.gsc_impressions, h.gsc_ctr, h.gsc_average_position,
              ${SERP_FEATURES.map((f) => `h.${f}`).join(', ')}
       FROM (
         SELECT c.*, lag(c.position) OVER (ORDER BY c.check_date) AS previous_position
         FROM rank_checks c
         WHERE c.keyword_id = $1 AND c.account_id = $2 AND c.check_date <= $4::date
       ) h
       WHERE h.check_date >= $3::date
       ORDER BY h.check_date DESC`,
      [keywordId, accountId, from, today],
    );
  }
}
