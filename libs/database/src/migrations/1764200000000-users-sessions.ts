import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The people of an account (email + password hash) and their server-side sessions. An email
 * is unique across the service compared case-insensitively (a unique index on lower(email));
 * it is stored trimmed, in the case given. A session stores only the SHA-256 of its 256-bit
 * random token. Removing a user (or an account) removes its sessions.
 */
export class UsersSessions1764200000000 implements MigrationInterface {
  name = 'UsersSessions1764200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE users (
        id                   serial PRIMARY KEY,
        account_id           integer NOT NULL,
        email                text NOT NULL,
        password_hash        text NOT NULL,
        created_at           timestamptz NOT NULL DEFAULT now(),
        last_sign_in_at      timestamptz,
        password_changed_at  timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT users_account_id_fkey FOREIGN KEY (account_id)
          REFERENCES accounts(id) ON DELETE CASCADE,
        CONSTRAINT users_email_check CHECK (length(email) BETWEEN 3 AND 254)
      )`);
    await q.query(`CREATE UNIQUE INDEX users_email_lower_key ON users (lower(email))`);
    await q.query(`CREATE INDEX users_account_idx ON users (account_id)`);
    await q.query(`
      CREATE TABLE sessions (
        id            serial PRIMARY KEY,
        token_hash    char(64) NOT NULL,
        user_id       integer NOT NULL,
        account_id    integer NOT NULL,
        created_at    timestamptz NOT NULL DEFAULT now(),
        last_seen_at  timestamptz NOT NULL,
        expires_at    timestamptz NOT NULL,
        CONSTRAINT sessions_token_hash_key UNIQUE (token_hash),
        CONSTRAINT sessions_user_id_fkey FOREIGN KEY (user_id)
          REFERENCES users(id) ON DELETE CASCADE,
        CONSTRAINT sessions_account_id_fkey FOREIGN KEY (account_id)
          REFERENCES accounts(id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX sessions_user_idx ON sessions (user_id)`);
    await q.query(`CREATE INDEX sessions_account_idx ON sessions (account_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE sessions`);
    await q.query(`DROP TABLE users`);
  }
}
