import { MigrationInterface, QueryRunner } from 'typeorm';

/** Accounts, API keys, the monthly call meter, feature usage and the credit ledger. */
export class Foundation1763700000000 implements MigrationInterface {
  name = 'Foundation1763700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE accounts (
        id          serial PRIMARY KEY,
        name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
        plan        text NOT NULL CHECK (plan IN ('free', 'starter', 'pro', 'agency')),
        credits     integer NOT NULL DEFAULT 0 CHECK (credits >= 0),
        overrides   jsonb NOT NULL DEFAULT '{}'::jsonb,
        created_at  timestamptz NOT NULL DEFAULT now(),
        updated_at  timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE api_keys (
        id            serial PRIMARY KEY,
        account_id    integer NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        label         text NOT NULL,
        prefix        text NOT NULL,
        key_hash      char(64) NOT NULL UNIQUE,
        created_at    timestamptz NOT NULL DEFAULT now(),
        last_used_at  timestamptz,
        revoked_at    timestamptz
      )`);
    await q.query(`CREATE INDEX api_keys_account_idx ON api_keys (account_id)`);
    await q.query(`
      CREATE TABLE api_call_meter (
        account_id    integer NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        period_start  date NOT NULL,
        used          integer NOT NULL CHECK (used >= 0),
        PRIMARY KEY (account_id, period_start)
      )`);
    await q.query(`
      CREATE TABLE feature_usage (
        account_id    integer NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        feature       text NOT NULL,
        period_start  date NOT NULL,
        used          integer NOT NULL DEFAULT 0 CHECK (used >= 0),
        PRIMARY KEY (account_id, feature, period_start)
      )`);
    await q.query(`
      CREATE TABLE credit_ledger (
        id             bigserial PRIMARY KEY,
        account_id     integer NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        delta          integer NOT NULL CHECK (delta <> 0),
        balance_after  integer NOT NULL CHECK (balance_after >= 0),
        reason         text NOT NULL,
        request_id     text,
        created_at     timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX credit_ledger_account_idx ON credit_ledger (account_id, id)`);
    // The ledger is append-only: refuse edits and deletes at the database level.
    await q.query(`
      CREATE FUNCTION credit_ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'credit_ledger is append-only';
      END $$`);
    await q.query(`
      CREATE TRIGGER credit_ledger_no_update BEFORE UPDATE ON credit_ledger
      FOR EACH ROW EXECUTE FUNCTION credit_ledger_append_only()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE credit_ledger`);
    await q.query(`DROP FUNCTION credit_ledger_append_only()`);
    await q.query(`DROP TABLE feature_usage`);
    await q.query(`DROP TABLE api_call_meter`);
    await q.query(`DROP TABLE api_keys`);
    await q.query(`DROP TABLE accounts`);
  }
}
