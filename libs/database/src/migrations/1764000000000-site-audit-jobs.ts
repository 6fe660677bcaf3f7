import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Site-audit jobs: the job records clients poll, the rolling page-budget ledger (one row per
 * job), and the stored audits with their per-page findings. See docs/site-audit-jobs.md.
 */
export class SiteAuditJobs1764000000000 implements MigrationInterface {
  name = 'SiteAuditJobs1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE jobs (
        id                  text PRIMARY KEY CHECK (id ~ '^job_[0-9A-Za-z]{22}$'),
        account_id          integer NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        endpoint            text NOT NULL CHECK (length(endpoint) BETWEEN 1 AND 64),
        status              text NOT NULL CHECK (status IN ('queued', 'running', 'complete', 'failed')),
        progress            smallint NOT NULL DEFAULT 0 CHECK (progress BETWEEN 0 AND 100),
        params              jsonb NOT NULL DEFAULT '{}'::jsonb,
        data                jsonb,
        error               jsonb,
        attempts            integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
        quota_period_start  date,
        request_id          text,
        created_at          timestamptz NOT NULL,
        updated_at          timestamptz NOT NULL,
        started_at          timestamptz,
        completed_at        timestamptz,
        deadline_at         timestamptz NOT NULL,
        CONSTRAINT jobs_completed_at_iff_terminal CHECK ((status IN ('complete', 'failed')) = (completed_at IS NOT NULL)),
        CONSTRAINT jobs_complete_has_data CHECK (status <> 'complete' OR data IS NOT NULL),
        CONSTRAINT jobs_failed_has_error CHECK (status <> 'failed' OR error IS NOT NULL)
      )`);
    // GET /jobs/:id reads by primary key (and account_id in the same WHERE).
    await q.query(`CREATE INDEX jobs_account_idx ON jobs (account_id, created_at DESC)`);
    // The sweeper: open jobs by deadline / age.
    await q.query(
      `CREATE INDEX jobs_open_idx ON jobs (deadline_at) WHERE status IN ('queued', 'running')`,
    );

    await q.query(`
      CREATE TABLE site_audit_page_budget (
        job_id          text PRIMARY KEY REFERENCES jobs(id) ON DELETE CASCADE,
        account_id      integer NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        pages_reserved  integer NOT NULL CHECK (pages_reserved >= 1),
        pages           integer NOT NULL CHECK (pages >= 0 AND pages <= pages_reserved),
        created_at      timestamptz NOT NULL,
        reconciled_at   timestamptz
      )`);
    // The rolling 30-day sum per account (index-only with INCLUDE).
    await q.query(
      `CREATE INDEX site_audit_page_budget_window_idx ON site_audit_page_budget (account_id, created_at) INCLUDE (pages)`,
    );

    await q.query(`
      CREATE TABLE audits (
        id                text PRIMARY KEY CHECK (id ~ '^aud_[0-9A-Za-z]{22}$'),
        job_id            text NOT NULL UNIQUE REFERENCES jobs(id) ON DELETE CASCADE,
        account_id        integer NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        start_url         text NOT NULL,
        domain            text NOT NULL,
        max_pages         integer NOT NULL,
        max_depth         integer NOT NULL,
        pages_crawled     integer NOT NULL CHECK (pages_crawled >= 0),
        total_score       double precision NOT NULL,
        geo_score         double precision NOT NULL,
        issues_critical   integer NOT NULL,
        issues_warning    integer NOT NULL,
        issues_notice     integer NOT NULL,
        issues_total      integer NOT NULL,
        rule_summary      jsonb NOT NULL,
        geo_checks        jsonb NOT NULL,
        truncated         boolean NOT NULL,
        truncated_reason  text,
        started_at        timestamptz NOT NULL,
        finished_at       timestamptz NOT NULL,
        created_at        timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX audits_account_idx ON audits (account_id, created_at DESC)`);

    await q.query(`
      CREATE TABLE audit_pages (
        audit_id          text NOT NULL REFERENCES audits(id) ON DELETE CASCADE,
        position          integer NOT NULL,
        url               text NOT NULL,
        final_url         text NOT NULL,
        status            integer,
        depth             integer NOT NULL,
        title             text,
        meta_description  text,
        h1_count          integer NOT NULL,
        word_count        integer NOT NULL,
        response_ms       integer NOT NULL,
        bytes             integer NOT NULL,
        canonical         text,
        noindex           boolean NOT NULL,
        issues            jsonb NOT NULL,
        PRIMARY KEY (audit_id, position)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE audit_pages`);
    await q.query(`DROP TABLE audits`);
    await q.query(`DROP TABLE site_audit_page_budget`);
    await q.query(`DROP TABLE jobs`);
  }
}
