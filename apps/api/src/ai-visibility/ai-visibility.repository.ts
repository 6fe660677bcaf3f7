import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

export interface AiProjectRow {
  id: number;
  domain: string;
  brand_name: string;
  target_country: string;
  target_language: string;
  ai_engine: string;
  tracking_frequency: string;
  status: string;
  visibility_score: number | null;
  previous_visibility_score: number | null;
  created_at: Date;
  updated_at: Date;
}

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

export interface CompetitorRow {
  competitor_name: string;
  competitor_domain: string;
  mention_count: number;
  visibility_score: number | null;
  avg_position: number | null;
  updated_at: Date;
}

/** At most this many competitors are returned (spec). */
export const MAX_COMPETITORS = 20;

const PROJECT_COLUMNS = `id, domain, brand_name, target_country, target_language, ai_engine, tracking_frequency,
  status, visibility_score, previous_visibility_score, created_at, updated_at`;

/** Reads of /ai-visibility/*. Ownership is part of every statement. */
@Injectable()
export class AiVisibilityRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async listProjects(accountId: number): Promise<AiProjectRow[]> {
    return this.db.query(
      `SELECT ${PROJECT_COLUMNS} FROM ai_visibility_projects WHERE account_id = $1 ORDER BY id`,
      [accountId],
    );
  }

  async project(accountId: number, projectId: number): Promise<AiProjectRow | null> {
    const rows: AiProjectRow[] = await this.db.query(
      `SELECT ${PROJECT_COLUMNS} FROM ai_visibility_projects WHERE id = $1 AND account_id = $2`,
      [projectId, accountId],
    );
    return rows[0] ?? null;
  }

  /** The newest scan of the project with the sum of its competitors' mentions. */
  async latestSnapshot(accountId: number, projectId: number): Promise<SnapshotRow | null> {
    const rows: SnapshotRow[] = await this.db.query(
      `SELECT s.id, to_char(s.snapshot_date, 'YYYY-MM-DD') AS snapshot_date, s.geo_score, s.mention_rate,
              s.avg_position, s.sentiment_avg, s.citation_rate, s.competition_score, s.prompts_evaluated,
              s.brand_mentions,
              (SELECT COALESCE(sum(c.mention_count), 0) FROM ai_visibility_competitors c WHERE c.snapshot_id = s.id)
                AS competitor_mentions
       FROM ai_visibility_snapshots s
       WHERE s.project_id = $1 AND s.account_id = $2
       ORDER BY s.snapshot_date DESC LIMIT 1`,
      [projectId, accountId],
    );
    return rows[0] ?? null;
  }

  /** Top competitors of a snapshot by mention count; ties by domain, then name. */
  async topCompetitors(accountId: number, snapshotId: number): Promise<CompetitorRow[]> {
    return this.db.query(
      `SELECT competitor_name, competitor_domain, mention_count, visibility_score, avg_position, updated_at
       FROM ai_visibility_competitors
       WHERE snapshot_id = $1 AND account_id = $2
       ORDER BY mention_count DESC, competitor_domain ASC
       LIMIT ${MAX_COMPETITORS}`,
      [snapshotId, accountId],
    );
  }
}
