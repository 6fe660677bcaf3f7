import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * AI-visibility scans (docs/ai-visibility-scans.md). On `ai_visibility_projects`: the
 * customer's brand aliases, prompts (an ordered text[]: read and written as a whole, at most
 * the plan's prompts per project, and every answer row keeps the prompt's text itself) and
 * competitors (`[{name, domain}]`), and the scan state: when the project is next due
 * (`next_scan_at`, null = never scanned by the service, as admin-made projects without prompts
 * stay), the claim that keeps two workers off one project (`scan_claimed_until`) and the last
 * error. `ai_visibility_answers`: one engine's answer to one prompt on one UTC scan date (the
 * latest scans' answers, so a person can check a figure against its text; a retry asks only
 * the prompts of the date that have no answered row, so nothing is paid twice).
 */
export class AiVisibilityScans1765600000000 implements MigrationInterface {
  name = 'AiVisibilityScans1765600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE ai_visibility_projects
        ADD COLUMN brand_aliases       text[] NOT NULL DEFAULT '{}',
        ADD COLUMN prompts             text[] NOT NULL DEFAULT '{}',
        ADD COLUMN competitors         jsonb NOT NULL DEFAULT '[]',
        ADD COLUMN next_scan_at        timestamptz,
        ADD COLUMN scan_claimed_until  timestamptz,
        ADD COLUMN last_scan_error     text,
        ADD CONSTRAINT ai_visibility_projects_competitors_check
          CHECK (jsonb_typeof(competitors) = 'array')`);
    // The scans' "which projects are due" lookup.
    await q.query(`
      CREATE INDEX ai_visibility_projects_due_idx ON ai_visibility_projects (next_scan_at)
        WHERE status = 'active' AND next_scan_at IS NOT NULL`);
    await q.query(`
      CREATE TABLE ai_visibility_answers (
        id           serial PRIMARY KEY,
        account_id   integer NOT NULL,
        project_id   integer NOT NULL,
        scan_date    date NOT NULL,
        engine       text NOT NULL,
        prompt       text NOT NULL,
        status       text NOT NULL,
        answer       text,
        cited_urls   text[] NOT NULL DEFAULT '{}',
        mentions     jsonb NOT NULL DEFAULT '[]',
        sentiment    double precision,
        cost_usd     numeric(12, 6) NOT NULL DEFAULT 0,
        error        text,
        asked_at     timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT ai_visibility_answers_account_id_fkey FOREIGN KEY (account_id)
          REFERENCES accounts(id) ON DELETE CASCADE,
        CONSTRAINT ai_visibility_answers_project_id_fkey FOREIGN KEY (project_id)
          REFERENCES ai_visibility_projects(id) ON DELETE CASCADE,
        CONSTRAINT ai_visibility_answers_natural_key UNIQUE (project_id, scan_date, engine, prompt),
        CONSTRAINT ai_visibility_answers_status_check CHECK (status IN ('answered', 'failed')),
        CONSTRAINT ai_visibility_answers_cost_check CHECK (cost_usd >= 0)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE ai_visibility_answers`);
    await q.query(`DROP INDEX ai_visibility_projects_due_idx`);
    await q.query(`
      ALTER TABLE ai_visibility_projects
        DROP CONSTRAINT ai_visibility_projects_competitors_check,
        DROP COLUMN last_scan_error,
        DROP COLUMN scan_claimed_until,
        DROP COLUMN next_scan_at,
        DROP COLUMN competitors,
        DROP COLUMN prompts,
        DROP COLUMN brand_aliases`);
  }
}
