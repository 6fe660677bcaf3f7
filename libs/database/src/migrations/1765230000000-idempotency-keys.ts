import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `Idempotency-Key` on POST under /api/v1 (docs/api.md, docs/pipeline-and-metering.md):
 * one row per account and key. The first request claims it (`running`, with a lease so a
 * killed process does not block the key for ever), its answer below 500 is kept (`complete`:
 * status, replayed headers, body bytes) and replayed for 24 hours; a 5xx deletes the claim.
 * The worker purges rows past `expires_at`.
 */
export class IdempotencyKeys1765230000000 implements MigrationInterface {
  name = 'IdempotencyKeys1765230000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE idempotency_keys (
        account_id   integer     NOT NULL,
        key          text        NOT NULL,
        route        text        NOT NULL,
        request_hash text        NOT NULL,
        state        text        NOT NULL,
        claim        uuid        NOT NULL,
        locked_until timestamptz,
        status       integer,
        headers      jsonb,
        body         bytea,
        created_at   timestamptz NOT NULL,
        expires_at   timestamptz NOT NULL,
        CONSTRAINT idempotency_keys_pkey PRIMARY KEY (account_id, key),
        CONSTRAINT idempotency_keys_account_id_fkey FOREIGN KEY (account_id)
          REFERENCES accounts(id) ON DELETE CASCADE,
        CONSTRAINT idempotency_keys_state_check CHECK (state IN ('running', 'complete')),
        CONSTRAINT idempotency_keys_key_check CHECK (length(key) BETWEEN 1 AND 255),
        CONSTRAINT idempotency_keys_answer_check CHECK (
          (state = 'running' AND status IS NULL AND body IS NULL)
          OR (state = 'complete' AND status IS NOT NULL AND body IS NOT NULL))
      )`);
    await q.query(`CREATE INDEX idempotency_keys_expires_idx ON idempotency_keys (expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE idempotency_keys`);
  }
}
