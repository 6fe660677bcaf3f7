import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Search Console connect and sync (docs/gsc-sync.md): `gsc_connections` (one Google account
 * an account connected; its refresh token is secret-box ciphertext, never shown), and on
 * `gsc_properties` the connection it syncs through (null for a sandbox property or one
 * imported by the admin route; SET NULL when the connection is deleted: the data stays until
 * the property is removed), Google's permission level, and the sync state: the backfill's
 * oldest day and progress (days done of days to do), when the property is next due, the last
 * error, and the claim (`sync_claimed_until`) that keeps two workers off the same property.
 */
export class GscSync1765400000000 implements MigrationInterface {
  name = 'GscSync1765400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE gsc_connections (
        id                serial PRIMARY KEY,
        account_id        integer NOT NULL,
        google_email      text NOT NULL,
        refresh_token_enc text NOT NULL,
        status            text NOT NULL DEFAULT 'active',
        created_at        timestamptz NOT NULL DEFAULT now(),
        updated_at        timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT gsc_connections_account_id_fkey FOREIGN KEY (account_id)
          REFERENCES accounts(id) ON DELETE CASCADE,
        CONSTRAINT gsc_connections_status_check
          CHECK (status IN ('active', 'reauth_required', 'revoked'))
      )`);
    await q.query(`CREATE INDEX gsc_connections_account_idx ON gsc_connections (account_id, id)`);
    await q.query(`
      ALTER TABLE gsc_properties
        ADD COLUMN connection_id        integer,
        ADD COLUMN permission_level     text,
        ADD COLUMN backfill_from        date,
        ADD COLUMN backfill_days_total  integer NOT NULL DEFAULT 0,
        ADD COLUMN backfill_days_done   integer NOT NULL DEFAULT 0,
        ADD COLUMN next_sync_at         timestamptz,
        ADD COLUMN last_error           text,
        ADD COLUMN sync_claimed_until   timestamptz,
        ADD CONSTRAINT gsc_properties_connection_id_fkey FOREIGN KEY (connection_id)
          REFERENCES gsc_connections(id) ON DELETE SET NULL`);
    await q.query(`CREATE INDEX gsc_properties_connection_idx ON gsc_properties (connection_id)`);
    // The sync's "which properties are due" scan.
    await q.query(
      `CREATE INDEX gsc_properties_due_idx ON gsc_properties (next_sync_at) WHERE status = 'active'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX gsc_properties_due_idx`);
    await q.query(`DROP INDEX gsc_properties_connection_idx`);
    await q.query(`
      ALTER TABLE gsc_properties
        DROP CONSTRAINT gsc_properties_connection_id_fkey,
        DROP COLUMN sync_claimed_until,
        DROP COLUMN last_error,
        DROP COLUMN next_sync_at,
        DROP COLUMN backfill_days_done,
        DROP COLUMN backfill_days_total,
        DROP COLUMN backfill_from,
        DROP COLUMN permission_level,
        DROP COLUMN connection_id`);
    await q.query(`DROP TABLE gsc_connections`);
  }
}
