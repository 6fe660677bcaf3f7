import { Injectable } from '@nestjs/common';
import {
  AiVisibilityCompetitorEntity,
  AiVisibilityProjectEntity,
  ReadSql,
  Sql,
  upserted,
} from '@app/database';
import { CreateAiProjectDto } from './ai-visibility-ingestion.dto';

/** The newest scan of a project with the sum of its competitors' mentions. */
export interface SnapshotRow {
  id: number;
  snapshot_date: string;
  geo_score: number;
  mention_rate: number;
  avg_position: number | null;
  sentiment_avg: number | null;
  citation_rate: number;
  competition_score: number;
  prompts_evaluated: number;
  brand_mentions: number;
  competitor_mentions: string;
}

/** What a project upsert answers. */
export type AiProjectRow = Pick<
  AiVisibilityProjectEntity,
  | 'id'
  | 'domain'
  | 'brandName'
  | 'targetCountry'
  | 'targetLanguage'
  | 'aiEngine'
  | 'trackingFrequency'
  | 'status'
  | 'visibilityScore'
  | 'previousVisibilityScore'
>;

/** At most this many competitors are returned (spec). */
export const MAX_COMPETITORS = 20;

/**
 * AI visibility: the reads of /ai-visibility/* (ownership is part of every statement) and
 * the admin ingestion's project upserts. Scans are stored through AiVisibilityIngestionRepository
 * (@app/database), shared with the worker's scans.
 */
@Injectable()
export class AiVisibilityRepository {
  constructor(
    private readonly sql: Sql,
    private readonly reads: ReadSql,
  ) {}

  listProjects(accountId: number): Promise<AiVisibilityProjectEntity[]> {
    return this.reads.read((sql) =>
      sql
        .repository(AiVisibilityProjectEntity)
        .find({ where: { accountId }, order: { id: 'ASC' } }),
    );
  }

  project(accountId: number, projectId: number): Promise<AiVisibilityProjectEntity | null> {
    return this.reads.read((sql) =>
      sql.repository(AiVisibilityProjectEntity).findOneBy({ id: projectId, accountId }),
    );
  }

  /** The newest scan of the project with the sum of its competitors' mentions. */
  async latestSnapshot(accountId: number, projectId: number): Promise<SnapshotRow | null> {
    const row = await this.reads.read((sql) =>
      sql.one<SnapshotRow>(
        `SELECT s.id, to_char(s.snapshot_date, 'YYYY-MM-DD') AS snapshot_date, s.geo_score, s.mention_rate,
              s.avg_position, s.sentiment_avg, s.citation_rate, s.competition_score, s.prompts_evaluated,
              s.brand_mentions,
              (SELECT COALESCE(sum(c.mention_count), 0) FROM ai_visibility_competitors c WHERE c.snapshot_id = s.id)
                AS competitor_mentions
       FROM ai_visibility_snapshots s
       WHERE s.project_id = $1 AND s.account_id = $2
       ORDER BY s.snapshot_date DESC LIMIT 1`,
        [projectId, accountId],
      ),
    );
    return row ?? null;
  }

  /** Top competitors of a snapshot by mention count; ties by domain. */
  topCompetitors(accountId: number, snapshotId: number): Promise<AiVisibilityCompetitorEntity[]> {
    return this.reads.read((sql) =>
      sql.repository(AiVisibilityCompetitorEntity).find({
        where: { snapshotId, accountId },
        order: { mentionCount: 'DESC', competitorDomain: 'ASC' },
        take: MAX_COMPETITORS,
      }),
    );
  }

  /** Creates the project, or updates the account's project of the same domain and engine. null: no such account. */
  async upsertProject(accountId: number, p: CreateAiProjectDto, now: Date) {
    return upserted(
      await this.sql.one<AiProjectRow & { created: boolean }>(
        `INSERT INTO ai_visibility_projects (account_id, domain, brand_name, target_country, target_language,
           ai_engine, tracking_frequency, status, created_at, updated_at)
         SELECT a.id, $2, $3, $4, $5, $6, $7, $8, $9, $9 FROM accounts a WHERE a.id = $1
         ON CONFLICT ON CONSTRAINT ai_visibility_projects_natural_key DO UPDATE SET
           brand_name = EXCLUDED.brand_name, target_country = EXCLUDED.target_country,
           target_language = EXCLUDED.target_language, tracking_frequency = EXCLUDED.tracking_frequency,
           status = EXCLUDED.status, updated_at = EXCLUDED.updated_at
         RETURNING id, domain, brand_name AS "brandName", target_country AS "targetCountry",
                   target_language AS "targetLanguage", ai_engine AS "aiEngine",
                   tracking_frequency AS "trackingFrequency", status, visibility_score AS "visibilityScore",
                   previous_visibility_score AS "previousVisibilityScore", (xmax = 0) AS created`,
        [
          accountId,
          p.domain,
          p.brand_name,
          p.target_country.toUpperCase(),
          p.target_language,
          p.ai_engine,
          p.tracking_frequency,
          p.status ?? 'active',
          now,
        ],
      ),
    );
  }
}
