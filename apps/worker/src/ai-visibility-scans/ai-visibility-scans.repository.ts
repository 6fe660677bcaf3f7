import { Injectable } from '@nestjs/common';
import { AiAnswerMention, AiCompetitor, Sql, SqlTx } from '@app/database';

/** A project a worker claimed, with what scanning it needs. */
export interface ClaimedProject {
  id: number;
  account_id: number;
  domain: string;
  brand_name: string;
  brand_aliases: string[];
  prompts: string[];
  competitors: AiCompetitor[];
  target_country: string;
  ai_engine: string;
  tracking_frequency: string;
  /** The claim: this worker's until then; the project's last write checks it. */
  claimed_until: Date;
}

/** An answered prompt of a scan date (what the figures are computed from). */
export interface AnsweredPrompt {
  prompt: string;
  answer: string;
  cited_urls: string[];
}

/** One prompt's outcome, recorded with its cost. */
export interface PromptRecord {
  prompt: string;
  answered: boolean;
  answer: string | null;
  citedUrls: string[];
  mentions: AiAnswerMention[];
  sentiment: number | null;
  cost: number;
  error: string | null;
}

/**
 * Statements of the AI-visibility scans (docs/ai-visibility-scans.md): the claim on due
 * projects (a lease in `scan_claimed_until`), each prompt's answer with its cost on the
 * provider-spend ledger, and how a scan ends.
 */
@Injectable()
export class AiVisibilityScansRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * Claims one due project: active, with prompts, `next_scan_at` passed (null: never, as
   * admin-made projects), not claimed by a live lease. Longest waiting first. One statement
   * (SKIP LOCKED), so two workers never claim the same project.
   */
  async claimDue(now: Date, leaseUntil: Date): Promise<ClaimedProject | null> {
    const row = await this.sql.one<ClaimedProject>(
      `WITH due AS (
         SELECT p.id FROM ai_visibility_projects p
         WHERE p.status = 'active' AND p.next_scan_at <= $1 AND cardinality(p.prompts) > 0
           AND (p.scan_claimed_until IS NULL OR p.scan_claimed_until < $1)
         ORDER BY p.next_scan_at, p.id
         LIMIT 1
         FOR UPDATE OF p SKIP LOCKED
       )
       UPDATE ai_visibility_projects p SET scan_claimed_until = $2
       FROM due WHERE p.id = due.id
       RETURNING p.id, p.account_id, p.domain, p.brand_name, p.brand_aliases, p.prompts, p.competitors,
                 p.target_country, p.ai_engine, p.tracking_frequency, p.scan_claimed_until AS claimed_until`,
      [now, leaseUntil],
    );
    return row ?? null;
  }

  /** The prompts of the date and engine already answered (not asked again: no double spend). */
  async answeredPrompts(projectId: number, day: string, engine: string): Promise<Set<string>> {
    const rows = await this.sql.rows<{ prompt: string }>(
      `SELECT prompt FROM ai_visibility_answers
       WHERE project_id = $1 AND scan_date = $2 AND engine = $3 AND status = 'answered'`,
      [projectId, day, engine],
    );
    return new Set(rows.map((r) => r.prompt));
  }

  /**
   * Records one prompt's outcome (an answer replaces a failure of the same date; the costs of
   * every attempt add up) and its cost on the spend ledger per account, day and endpoint, in
   * one transaction.
   */
  recordPrompt(
    p: ClaimedProject,
    day: string,
    endpoint: string,
    r: PromptRecord,
    now: Date,
  ): Promise<void> {
    return this.sql.transaction(async (tx) => {
      await tx.run(
        `INSERT INTO ai_visibility_answers AS a (account_id, project_id, scan_date, engine, prompt, status,
           answer, cited_urls, mentions, sentiment, cost_usd, error, asked_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
         ON CONFLICT ON CONSTRAINT ai_visibility_answers_natural_key DO UPDATE SET
           status = EXCLUDED.status, answer = EXCLUDED.answer, cited_urls = EXCLUDED.cited_urls,
           mentions = EXCLUDED.mentions, sentiment = EXCLUDED.sentiment,
           cost_usd = a.cost_usd + EXCLUDED.cost_usd, error = EXCLUDED.error, asked_at = EXCLUDED.asked_at
         WHERE a.status <> 'answered'`,
        [
          p.account_id,
          p.id,
          day,
          p.ai_engine,
          r.prompt,
          r.answered ? 'answered' : 'failed',
          r.answer,
          r.citedUrls,
          JSON.stringify(r.mentions),
          r.sentiment,
          r.cost,
          r.error,
          now,
        ],
      );
      await this.addSpend(tx, p.account_id, day, endpoint, r.cost);
    });
  }

  private async addSpend(
    tx: SqlTx,
    accountId: number,
    day: string,
    endpoint: string,
    usd: number,
  ): Promise<void> {
    await tx.run(
      `INSERT INTO provider_spend AS s (account_id, day, endpoint, tasks, usd)
       VALUES ($1, $2::date, $3, 1, $4)
       ON CONFLICT (account_id, day, endpoint) DO UPDATE SET
         tasks = s.tasks + 1, usd = s.usd + EXCLUDED.usd`,
      [accountId, day, endpoint, usd],
    );
  }

  /** The answered prompts of the date and engine among `prompts`, in the project's order. */
  async answers(
    projectId: number,
    day: string,
    engine: string,
    prompts: string[],
  ): Promise<AnsweredPrompt[]> {
    const rows = await this.sql.rows<AnsweredPrompt>(
      `SELECT prompt, answer, cited_urls FROM ai_visibility_answers
       WHERE project_id = $1 AND scan_date = $2 AND engine = $3 AND status = 'answered'
         AND prompt = ANY($4::text[])`,
      [projectId, day, engine, prompts],
    );
    const byPrompt = new Map(rows.map((r) => [r.prompt, r]));
    return prompts.flatMap((p) => byPrompt.get(p) ?? []);
  }

  /**
   * Ends a scan: the next due time, the last error (null: complete), the claim released;
   * only while this worker's claim holds. A complete scan drops the answers of older dates
   * (the table keeps the latest scans). false: the claim was lost.
   */
  async finish(
    p: ClaimedProject,
    nextScanAt: Date,
    error: string | null,
    completeDay: string | null,
    now: Date,
  ): Promise<boolean> {
    return this.sql.transaction(async (tx) => {
      const done = await tx.rows<{ id: number }>(
        `UPDATE ai_visibility_projects SET next_scan_at = $2, last_scan_error = $3,
           scan_claimed_until = NULL, updated_at = $5
         WHERE id = $1 AND scan_claimed_until = $4
         RETURNING id`,
        [p.id, nextScanAt, error, p.claimed_until, now],
      );
      if (!done.length) return false;
      if (completeDay)
        await tx.run(`DELETE FROM ai_visibility_answers WHERE project_id = $1 AND scan_date < $2`, [
          p.id,
          completeDay,
        ]);
      return true;
    });
  }
}
