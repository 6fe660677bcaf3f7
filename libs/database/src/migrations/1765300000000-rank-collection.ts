import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Rank collection by the worker (docs/rank-collection.md): `rank_projects.tracking` (false
 * for every existing project: imported history is never checked behind an operator's back),
 * when a tracked keyword's difficulty, volume and cpc were last fetched (every 30 days),
 * one SERP task per keyword and UTC day (`rank_serp_tasks`, its primary key is the claim),
 * and the provider-spend ledger per account, day and endpoint.
 */
export class RankCollection1765300000000 implements MigrationInterface {
  name = 'RankCollection1765300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE rank_projects ADD COLUMN tracking boolean NOT NULL DEFAULT false`);
    await q.query(`ALTER TABLE tracked_keywords ADD COLUMN metrics_refreshed_at timestamptz`);
    await q.query(`
      CREATE TABLE rank_serp_tasks (
        keyword_id  integer       NOT NULL,
        check_date  date          NOT NULL,
        account_id  integer       NOT NULL,
        state       text          NOT NULL,
        attempts    integer       NOT NULL,
        task_id     text,
        claimed_at  timestamptz   NOT NULL,
        posted_at   timestamptz,
        cost        numeric(12,6) NOT NULL DEFAULT 0,
        last_error  text,
        updated_at  timestamptz   NOT NULL,
        CONSTRAINT rank_serp_tasks_pkey PRIMARY KEY (keyword_id, check_date),
        CONSTRAINT rank_serp_tasks_keyword_id_fkey FOREIGN KEY (keyword_id)
          REFERENCES tracked_keywords(id) ON DELETE CASCADE,
        CONSTRAINT rank_serp_tasks_account_id_fkey FOREIGN KEY (account_id)
          REFERENCES accounts(id) ON DELETE CASCADE,
        CONSTRAINT rank_serp_tasks_attempts_check CHECK (attempts BETWEEN 1 AND 3),
        CONSTRAINT rank_serp_tasks_state_check CHECK (
          state IN ('claimed', 'posted', 'collected', 'failed', 'refused', 'given_up'))
      )`);
    await q.query(`CREATE INDEX rank_serp_tasks_state_idx ON rank_serp_tasks (state, claimed_at)`);
    await q.query(`CREATE UNIQUE INDEX rank_serp_tasks_task_id_key ON rank_serp_tasks (task_id)`);
    await q.query(
      `CREATE INDEX tracked_keywords_pending_idx ON tracked_keywords (id) WHERE status = 'pending'`,
    );
    await q.query(`
      CREATE TABLE provider_spend (
        account_id integer       NOT NULL,
        day        date          NOT NULL,
        endpoint   text          NOT NULL,
        tasks      integer       NOT NULL DEFAULT 0,
        usd        numeric(14,6) NOT NULL DEFAULT 0,
        CONSTRAINT provider_spend_pkey PRIMARY KEY (account_id, day, endpoint),
        CONSTRAINT provider_spend_account_id_fkey FOREIGN KEY (account_id)
          REFERENCES accounts(id) ON DELETE CASCADE
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE provider_spend`);
    await q.query(`DROP TABLE rank_serp_tasks`);
    await q.query(`DROP INDEX tracked_keywords_pending_idx`);
    await q.query(`ALTER TABLE tracked_keywords DROP COLUMN metrics_refreshed_at`);
    await q.query(`ALTER TABLE rank_projects DROP COLUMN tracking`);
  }
}
