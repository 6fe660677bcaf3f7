import { Injectable } from '@nestjs/common';
import { AiCompetitor, AiVisibilityProjectEntity } from './entities';
import { Sql, SqlTx } from './sql';

/** A competitor as a scan reports it (CompetitorDto in the API). */
export interface AiScanCompetitorInput {
  competitor_name: string;
  competitor_domain: string;
  mention_count: number;
  visibility_score: number | null;
  avg_position: number | null;
}

/**
 * One scan of a project: the admin ingestion posts it (ScanDto in the API), the worker's
 * AI-visibility scans compute it from the engines' answers (docs/ai-visibility-scans.md).
 */
export interface AiScanInput {
  snapshot_date: string;
  visibility_score: number;
  geo_score: number;
  mention_rate: number;
  avg_position: number | null;
  sentiment_avg: number | null;
  citation_rate: number;
  competition_score: number;
  prompts_evaluated: number;
  brand_mentions: number;
  competitors: AiScanCompetitorInput[];
}

/** What a project's scans ask and track (the customer's settings). */
export interface AiScanSettings {
  brand_aliases: string[];
  prompts: string[];
  competitors: AiCompetitor[];
}

/** What a stored scan answers besides `stored`. */
export interface ScanResult {
  competitors: number;
  visibility_score: number | null;
  previous_visibility_score: number | null;
}

/**
 * The write path of AI-visibility scans, shared by the admin ingestion route (API) and the
 * worker's scans: a snapshot per project and date with its competitor list, and the
 * project's visibility_score / previous_visibility_score recomputed from its snapshots.
 */
@Injectable()
export class AiVisibilityIngestionRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * Sets what a project's scans ask and track. A project never scheduled becomes due at
   * `dueAt` (now: scanned within one scheduler tick); a scheduled one keeps its schedule.
   * false: no such project.
   */
  async setScanSettings(
    projectId: number,
    s: AiScanSettings,
    dueAt: Date | null,
    now: Date,
  ): Promise<boolean> {
    const rows = await this.sql.rows<{ id: number }>(
      `UPDATE ai_visibility_projects SET brand_aliases = $2, prompts = $3, competitors = $4::jsonb,
         next_scan_at = COALESCE(next_scan_at, $5), updated_at = $6
       WHERE id = $1 RETURNING id`,
      [projectId, s.brand_aliases, s.prompts, JSON.stringify(s.competitors), dueAt, now],
    );
    return rows.length > 0;
  }

  /**
   * Stores one scan in one transaction: the snapshot of that date (re-posting the date
   * replaces it and its competitor list), then the project's visibility_score = the newest
   * snapshot's score and previous_visibility_score = the one before, recomputed from the
   * snapshots (so scans may arrive in any date order). The project row is locked first, so
   * concurrent scans of one project are serialized. null: no such project.
   */
  async storeScan(projectId: number, s: AiScanInput, now: Date): Promise<ScanResult | null> {
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
    s: AiScanInput,
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
    s: AiScanInput,
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
