import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import {
  CreateRankProjectDto,
  CreateTrackedKeywordDto,
  RankCheckDto,
} from './dto/rank-ingestion.dto';
import { SERP_FEATURES } from '@app/database';

export interface Upserted<T> {
  row: T;
  created: boolean;
}

/** Writes of rank projects, tracked keywords and checks (admin ingestion). */
@Injectable()
export class RankIngestionRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Creates the project, or renames the account's project of the same domain. null: no such account. */
  async upsertProject(accountId: number, p: CreateRankProjectDto, now: Date) {
    const rows: Array<{
      id: number;
      account_id: number;
      domain: string;
      name: string;
      created: boolean;
    }> = await this.db.query(
      `INSERT INTO rank_projects (account_id, domain, name, created_at, updated_at)
         SELECT a.id, $2, $3, $4, $4 FROM accounts a WHERE a.id = $1
         ON CONFLICT ON CONSTRAINT rank_projects_natural_key
           DO UPDATE SET name = EXCLUDED.name, updated_at = EXCLUDED.updated_at
         RETURNING id, account_id, domain, name, (xmax = 0) AS created`,
      [accountId, p.domain, p.name, now],
    );
    return rows[0] ?? null;
  }

  /**
   * Creates the keyword, or replaces status/difficulty/volume/cpc of the project's keyword with
   * the same (keyword, country, language, device). null: no such project.
   */
  async upsertKeyword(projectId: number, k: CreateTrackedKeywordDto, now: Date) {
    const rows: Array<Record<string, unknown> & { created: boolean }> = await this.db.query(
      `INSERT INTO tracked_keywords
         (account_id, project_id, keyword, country, language, device, status, difficulty, search_volume, cpc,
          created_at, updated_at)
       SELECT p.account_id, p.id, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10 FROM rank_projects p WHERE p.id = $1
       ON CONFLICT ON CONSTRAINT tracked_keywords_natural_key DO UPDATE SET
         status = EXCLUDED.status, difficulty = EXCLUDED.difficulty, search_volume = EXCLUDED.search_volume,
         cpc = EXCLUDED.cpc, updated_at = EXCLUDED.updated_at
       RETURNING id, project_id, keyword, country, language, device, status, difficulty, search_volume,
                 cpc::float8 AS cpc, (xmax = 0) AS created`,
      [
        projectId,
        k.keyword,
        k.country.toUpperCase(),
        k.language,
        k.device,
        k.status ?? 'active',
        k.difficulty ?? null,
        k.search_volume ?? null,
        k.cpc ?? null,
        now,
      ],
    );
    return rows[0] ?? null;
  }

  /**
   * Stores a batch of checks in one transaction: one row per (keyword, check_date), a
   * re-posted date replaces the stored one; within a batch the last entry of a date wins.
   * Returns the number of checks stored, or null when the keyword does not exist.
   */
  async storeChecks(keywordId: number, checks: RankCheckDto[], now: Date): Promise<number | null> {
    const byDate = new Map<string, RankCheckDto>();
    for (const c of checks) byDate.set(c.check_date, c);
    const list = [...byDate.values()];
    return this.db.transaction(async (m) => {
      const kw: Array<{ account_id: number }> = await m.query(
        `SELECT account_id FROM tracked_keywords WHERE id = $1 FOR NO KEY UPDATE`,
        [keywordId],
      );
      if (!kw.length) return null;
      await m.query(
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
          kw[0].account_id,
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
      return list.length;
    });
  }
}
