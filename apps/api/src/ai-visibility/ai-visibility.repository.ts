import { Injectable } from '@nestjs/common';
import {
  AiVisibilityCompetitorEntity,
  AiVisibilityProjectEntity,
  ReadSql,
  Sql,
  SqlTx,
  upserted,
} from '@app/database';
import { CreateAiProjectDto, ScanDto } from './ai-visibility-ingestion.dto';

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

/** What a stored scan answers besides `stored`. */
export interface ScanResult {
  competitors: number;
  visibility_score: number | null;
  previous_visibility_score: number | null;
}

/** At most this many competitors are returned (spec). */
export const MAX_COMPETITORS = 20;

/**
 * AI visibility: the reads of /ai-visibility/* (ownership is part of every statement) and
 * the writes of the admin ingestion (project upserts, scans).
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

  /**
   * Stores one scan in one transaction: the snapshot of that date (re-posting the date
   * replaces it and its competitor list), then the project's visibility_score = the newest
   * snapshot's score and previous_visibility_score = the one before, recomputed from the
   * snapshots (so scans may arrive in any date order). The project row is locked first, so
   * concurrent scans of one project are serialized. null: no such project.
   */
  async storeScan(projectId: number, s: ScanDto, now: Date): Promise<ScanResult | null> {
    return this.sql.bulkTransaction(async (tx) => {
      const accountId = await tx.lockAccountRow(AiVisibilityProjectEntity, projectId);
      if (accountId === null) return null;
      const snapshotId = await this.upsertSnapshot(tx, accountId, projectId, s, now);
      await this.replaceCompetitors(tx, snapshotId, accountId, s, now);
      const scores = await this.recomputeProjectScores(tx, projectId, now);
      return { competitors: s.competitors.length, ...scores };
    });
  }

  /** The snapshot of the scan's date, inserted or replaced (`storeScan`): its id. */
  private async upsertSnapshot(
    tx: SqlTx,
    accountId: number,
    projectId: number,
    s: ScanDto,
    now: Date,
  ): Promise<number> {
    const snap = (await tx.one<{ id: number }>(
      `INSERT INTO ai_visibility_snapshots (account_id, project_id, snapshot_date, visibility_score, geo_score,
           mention_rate, avg_position, sentiment_avg, citation_rate, competition_score, prompts_evaluated,
           brand_mentions, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13)
         ON CONFLICT ON CONSTRAINT ai_visibility_snapshots_natural_key DO UPDATE SET
           visibility_score = EXCLUDED.visibility_score, geo_score = EXCLUDED.geo_score,
           mention_rate = EXCLUDED.mention_rate, avg_position = EXCLUDED.avg_position,
           sentiment_avg = EXCLUDED.sentiment_avg, citation_rate = EXCLUDED.citation_rate,
           competition_score = EXCLUDED.competition_score, prompts_evaluated = EXCLUDED.prompts_evaluated,
           brand_mentions = EXCLUDED.brand_mentions, updated_at = EXCLUDED.updated_at
         RETURNING id`,
      [
        accountId,
        projectId,
        s.snapshot_date,
        s.visibility_score,
        s.geo_score,
        s.mention_rate,
        s.avg_position,
        s.sentiment_avg,
        s.citation_rate,
        s.competition_score,
        s.prompts_evaluated,
        s.brand_mentions,
        now,
      ],
    ))!;
    return snap.id;
  }

  /** The snapshot's competitor list replaced by the scan's (`storeScan`). */
  private async replaceCompetitors(
    tx: SqlTx,
    snapshotId: number,
    accountId: number,
    s: ScanDto,
    now: Date,
  ): Promise<void> {
    await tx.run(`DELETE FROM ai_visibility_competitors WHERE snapshot_id = $1`, [snapshotId]);
    if (!s.competitors.length) return;
    await tx.run(
      `INSERT INTO ai_visibility_competitors (snapshot_id, account_id, competitor_name, competitor_domain,
             mention_count, visibility_score, avg_position, updated_at)
           SELECT $1, $2, u.*, $3::timestamptz
           FROM unnest($4::text[], $5::text[], $6::int[], $7::float8[], $8::float8[]) AS u`,
      [
        snapshotId,
        accountId,
        now,
        s.competitors.map((c) => c.competitor_name),
        s.competitors.map((c) => c.competitor_domain),
        s.competitors.map((c) => c.mention_count),
        s.competitors.map((c) => c.visibility_score),
        s.competitors.map((c) => c.avg_position),
      ],
    );
  }

  /** The project's newest and previous visibility scores, from its snapshots (`storeScan`). */
  private async recomputeProjectScores(
    tx: SqlTx,
    projectId: number,
    now: Date,
  ): Promise<Omit<ScanResult, 'competitors'>> {
    return (await tx.one<Omit<ScanResult, 'competitors'>>(
      `UPDATE ai_visibility_projects p SET
             visibility_score = (SELECT s.visibility_score FROM ai_visibility_snapshots s
                                 WHERE s.project_id = p.id ORDER BY s.snapshot_date DESC LIMIT 1),
             previous_visibility_score = (SELECT s.visibility_score FROM ai_visibility_snapshots s
                                          WHERE s.project_id = p.id ORDER BY s.snapshot_date DESC OFFSET 1 LIMIT 1),
             updated_at = $2
           WHERE p.id = $1
           RETURNING visibility_score, previous_visibility_score`,
      [projectId, now],
    ))!;
  }
}
