import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Signed webhooks for site-audit completion (docs/webhooks.md): the optional webhook_url of a
 * job, each account's signing secret (stored as is: it must be recoverable to sign; the
 * previous one stays valid for 24 hours after a rotation), and the outbox of deliveries (one
 * per job, written in the transaction that ends the job) with its attempt counters.
 */
export class Webhooks1764400000000 implements MigrationInterface {
  name = 'Webhooks1764400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE jobs ADD COLUMN webhook_url text
        CONSTRAINT jobs_webhook_url_check CHECK (length(webhook_url) BETWEEN 1 AND 2048)`);

    await q.query(`
      CREATE TABLE webhook_secrets (
        account_id                    integer PRIMARY KEY,
        secret                        text NOT NULL,
        previous_secret               text,
        previous_secret_valid_until   timestamptz,
        created_at                    timestamptz NOT NULL,
        CONSTRAINT webhook_secrets_account_id_fkey FOREIGN KEY (account_id)
          REFERENCES accounts(id) ON DELETE CASCADE,
        CONSTRAINT webhook_secrets_secret_check CHECK (secret ~ '^whsec_[A-Za-z0-9+/=]{40,100}$'),
        CONSTRAINT webhook_secrets_previous_check
          CHECK ((previous_secret IS NULL) = (previous_secret_valid_until IS NULL))
      )`);

    await q.query(`
      CREATE TABLE webhook_deliveries (
        id               text PRIMARY KEY,
        account_id       integer NOT NULL,
        job_id           text NOT NULL,
        event            text NOT NULL,
        url              text NOT NULL,
        status           text NOT NULL,
        attempts         integer NOT NULL DEFAULT 0,
        last_status_code integer,
        last_error       text,
        last_attempt_at  timestamptz,
        next_attempt_at  timestamptz,
        delivered_at     timestamptz,
        created_at       timestamptz NOT NULL,
        CONSTRAINT webhook_deliveries_account_id_fkey FOREIGN KEY (account_id)
          REFERENCES accounts(id) ON DELETE CASCADE,
        CONSTRAINT webhook_deliveries_job_id_fkey FOREIGN KEY (job_id)
          REFERENCES jobs(id) ON DELETE CASCADE,
        CONSTRAINT webhook_deliveries_job_id_key UNIQUE (job_id),
        CONSTRAINT webhook_deliveries_id_check CHECK (id ~ '^msg_[0-9A-Za-z]{22}$'),
        CONSTRAINT webhook_deliveries_event_check
          CHECK (event IN ('site_audit.completed', 'site_audit.failed')),
        CONSTRAINT webhook_deliveries_status_check
          CHECK (status IN ('pending', 'delivered', 'failed')),
        CONSTRAINT webhook_deliveries_attempts_check CHECK (attempts >= 0),
        CONSTRAINT webhook_deliveries_delivered_at_check
          CHECK ((status = 'delivered') = (delivered_at IS NOT NULL))
      )`);
    // The account's deliveries, newest first (admin and account-area lists).
    await q.query(
      `CREATE INDEX webhook_deliveries_account_idx ON webhook_deliveries (account_id, created_at DESC)`,
    );
    // The sweep: pending deliveries by their next attempt.
    await q.query(
      `CREATE INDEX webhook_deliveries_pending_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE webhook_deliveries`);
    await q.query(`DROP TABLE webhook_secrets`);
    await q.query(`ALTER TABLE jobs DROP COLUMN webhook_url`);
  }
}
