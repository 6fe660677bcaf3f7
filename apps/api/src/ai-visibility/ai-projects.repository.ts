import { Injectable } from '@nestjs/common';
import {
  AiAnswerMention,
  AiCompetitor,
  AiVisibilityProjectEntity,
  ReadSql,
  Sql,
  SqlScope,
  SqlTx,
} from '@app/database';

/** The members of a project the customer sets (docs/ai-visibility-management.md). */
export interface AiProjectFields {
  domain: string;
  brandName: string;
  brandAliases: string[];
  targetCountry: string;
  targetLanguage: string;
  aiEngine: string;
  trackingFrequency: string;
  prompts: string[];
  competitors: AiCompetitor[];
}

/** What a change of a project is, as the service decided it from the stored project. */
export interface AiProjectChange {
  fields: Partial<AiProjectFields>;
  /** Scan the project within minutes (next_scan_at = now): what is asked, or where, changed. */
  rescan: boolean;
}

/** The outcome of a project write. */
export type AiProjectWrite =
  | { kind: 'written'; project: AiVisibilityProjectEntity }
  /** The account's ai_visibility_projects limit would be passed (`used`: its projects now). */
  | { kind: 'over'; used: number }
  /** The account already has a project of that domain on that engine. */
  | { kind: 'taken' }
  | { kind: 'missing' };

/** One current prompt of a project with its newest answer on the project's engine. */
export interface LatestAnswerRow {
  prompt: string;
  scan_date: string | null;
  status: 'answered' | 'failed' | null;
  answer: string | null;
  cited_urls: string[];
  mentions: AiAnswerMention[];
  sentiment: number | null;
}

/** One stored scan's scores (the console's chart). */
export interface ScoreRow {
  snapshot_date: string;
  visibility_score: number;
  geo_score: number;
  competition_score: number;
  mention_rate: number;
  citation_rate: number;
}

/** The advisory-lock namespace of an account's AI-visibility project writes (second half: the account id). */
const AI_PROJECTS_LOCK = 1_765_600;

/**
 * The customer's AI-visibility projects: creating, changing and deleting them (every write of
 * an account's projects holds the account's project lock, a transaction advisory lock, so the
 * `ai_visibility_projects` limit and the one-project-per-domain-and-engine rule hold under
 * concurrency), and what the console reads of them (scores over time, latest answers).
 * Ownership is part of every statement.
 */
@Injectable()
export class AiProjectsRepository {
  constructor(
    private readonly sql: Sql,
    private readonly reads: ReadSql,
  ) {}

  /** The account's project, or null when it has none of that id. */
  project(accountId: number, projectId: number): Promise<AiVisibilityProjectEntity | null> {
    return this.reads.read((sql) =>
      sql.repository(AiVisibilityProjectEntity).findOneBy({ id: projectId, accountId }),
    );
  }

  /**
   * Creates the project, due for its first scan now, unless the account would pass its
   * `limit` of projects or already has a project of the domain on the engine.
   */
  create(
    accountId: number,
    fields: AiProjectFields,
    limit: number,
    now: Date,
  ): Promise<AiProjectWrite> {
    return this.sql.transaction(async (tx) => {
      await this.lockAccount(tx, accountId);
      const used = await this.projectsUsed(accountId, tx);
      if (used + 1 > limit) return { kind: 'over', used };
      if (await this.taken(tx, accountId, fields.domain, fields.aiEngine, null))
        return { kind: 'taken' };
      const project = await tx.repository(AiVisibilityProjectEntity).save({
        accountId,
        ...fields,
        status: 'active',
        nextScanAt: now,
        createdAt: now,
        updatedAt: now,
      });
      return { kind: 'written', project: await this.reread(tx, project.id) };
    });
  }

  /**
   * Changes the account's project as `decide` says from the stored project (read under the
   * locks; `decide` may throw to change nothing).
   */
  update(
    accountId: number,
    projectId: number,
    decide: (current: AiVisibilityProjectEntity) => AiProjectChange,
    now: Date,
  ): Promise<AiProjectWrite> {
    return this.sql.transaction(async (tx) => {
      await this.lockAccount(tx, accountId);
      if ((await tx.lockAccountRow(AiVisibilityProjectEntity, projectId)) !== accountId)
        return { kind: 'missing' };
      const current = await this.reread(tx, projectId);
      const { fields, rescan } = decide(current);
      const domain = fields.domain ?? current.domain;
      const engine = fields.aiEngine ?? current.aiEngine;
      if (await this.taken(tx, accountId, domain, engine, projectId)) return { kind: 'taken' };
      await tx.repository(AiVisibilityProjectEntity).update(
        { id: projectId, accountId },
        {
          ...fields,
          updatedAt: now,
          ...(rescan ? { nextScanAt: now } : {}),
        },
      );
      return { kind: 'written', project: await this.reread(tx, projectId) };
    });
  }

  /** Deletes the account's project with its scans and answers (the foreign keys cascade). */
  delete(accountId: number, projectId: number): Promise<boolean> {
    return this.sql.bulkTransaction(async (tx) => {
      await this.lockAccount(tx, accountId);
      const gone = await tx.rows<{ id: number }>(
        `DELETE FROM ai_visibility_projects WHERE id = $1 AND account_id = $2 RETURNING id`,
        [projectId, accountId],
      );
      return gone.length > 0;
    });
  }

  /** The projects the account has (what the `ai_visibility_projects` limit counts). */
  async projectsUsed(accountId: number, scope: SqlScope = this.sql): Promise<number> {
    const [{ n }] = await scope.rows<{ n: number }>(
      `SELECT count(*)::int AS n FROM ai_visibility_projects WHERE account_id = $1`,
      [accountId],
    );
    return n;
  }

  /** The most prompts one of the account's projects has (the usage view's figure). */
  async largestPromptCount(accountId: number): Promise<number> {
    const [{ n }] = await this.sql.rows<{ n: number }>(
      `SELECT COALESCE(max(cardinality(prompts)), 0)::int AS n
       FROM ai_visibility_projects WHERE account_id = $1`,
      [accountId],
    );
    return n;
  }

  /** The project's stored scans, oldest first, the newest `days` dates. */
  scores(accountId: number, projectId: number, days: number): Promise<ScoreRow[]> {
    return this.reads.read((sql) =>
      sql.rows<ScoreRow>(
        `SELECT * FROM (
           SELECT to_char(snapshot_date, 'YYYY-MM-DD') AS snapshot_date, visibility_score, geo_score,
                  competition_score, mention_rate, citation_rate
           FROM ai_visibility_snapshots WHERE project_id = $1 AND account_id = $2
           ORDER BY snapshot_date DESC LIMIT $3) s
         ORDER BY snapshot_date`,
        [projectId, accountId, days],
      ),
    );
  }

  /**
   * Each current prompt of the project, in the project's order, with its newest answer on
   * the project's engine (an answered row before a failed one of the same date; nulls when
   * the prompt was never asked).
   */
  latestAnswers(accountId: number, projectId: number): Promise<LatestAnswerRow[]> {
    return this.reads.read((sql) =>
      sql.rows<LatestAnswerRow>(
        `SELECT q.prompt, to_char(a.scan_date, 'YYYY-MM-DD') AS scan_date, a.status, a.answer,
                COALESCE(a.cited_urls, '{}') AS cited_urls, COALESCE(a.mentions, '[]') AS mentions,
                a.sentiment
         FROM ai_visibility_projects p
         CROSS JOIN LATERAL unnest(p.prompts) WITH ORDINALITY AS q(prompt, n)
         LEFT JOIN LATERAL (
           SELECT x.scan_date, x.status, x.answer, x.cited_urls, x.mentions, x.sentiment
           FROM ai_visibility_answers x
           WHERE x.project_id = p.id AND x.account_id = p.account_id AND x.engine = p.ai_engine
             AND x.prompt = q.prompt
           ORDER BY x.scan_date DESC, (x.status = 'answered') DESC
           LIMIT 1) a ON true
         WHERE p.id = $1 AND p.account_id = $2
         ORDER BY q.n`,
        [projectId, accountId],
      ),
    );
  }

  private lockAccount(tx: SqlTx, accountId: number): Promise<void> {
    return tx.run(`SELECT pg_advisory_xact_lock($1, $2)`, [AI_PROJECTS_LOCK, accountId]);
  }

  /** Whether another of the account's projects has the domain on the engine. */
  private async taken(
    tx: SqlTx,
    accountId: number,
    domain: string,
    engine: string,
    except: number | null,
  ): Promise<boolean> {
    const row = await tx.one<{ id: number }>(
      `SELECT id FROM ai_visibility_projects
       WHERE account_id = $1 AND domain = $2 AND ai_engine = $3 AND id IS DISTINCT FROM $4`,
      [accountId, domain, engine, except],
    );
    return row !== undefined;
  }

  private async reread(tx: SqlTx, projectId: number): Promise<AiVisibilityProjectEntity> {
    return tx.repository(AiVisibilityProjectEntity).findOneByOrFail({ id: projectId });
  }
}
