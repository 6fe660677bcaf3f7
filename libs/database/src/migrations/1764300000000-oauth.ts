import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The OAuth 2.1 authorization server of the hosted MCP connector (docs/oauth.md): clients
 * (dynamically registered or known by their metadata document), grants (one per approval),
 * authorization codes and tokens. Codes and tokens are stored as SHA-256 hashes only.
 * Removing a user or an account removes its grants, and with them their codes and tokens.
 */
export class OAuth1764300000000 implements MigrationInterface {
  name = 'OAuth1764300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE oauth_clients (
        id            serial PRIMARY KEY,
        client_id     text NOT NULL,
        kind          text NOT NULL,
        client_name   text NOT NULL,
        redirect_uris jsonb NOT NULL,
        metadata      jsonb NOT NULL,
        created_at    timestamptz NOT NULL DEFAULT now(),
        fetched_at    timestamptz,
        CONSTRAINT oauth_clients_client_id_key UNIQUE (client_id),
        CONSTRAINT oauth_clients_kind_check CHECK (kind IN ('registered', 'metadata_document'))
      )`);
    await q.query(`
      CREATE TABLE oauth_grants (
        id            serial PRIMARY KEY,
        user_id       integer NOT NULL,
        account_id    integer NOT NULL,
        client_pk     integer NOT NULL,
        scopes        jsonb NOT NULL,
        resource      text NOT NULL,
        created_at    timestamptz NOT NULL DEFAULT now(),
        last_used_at  timestamptz,
        revoked_at    timestamptz,
        CONSTRAINT oauth_grants_user_id_fkey FOREIGN KEY (user_id)
          REFERENCES users(id) ON DELETE CASCADE,
        CONSTRAINT oauth_grants_account_id_fkey FOREIGN KEY (account_id)
          REFERENCES accounts(id) ON DELETE CASCADE,
        CONSTRAINT oauth_grants_client_pk_fkey FOREIGN KEY (client_pk)
          REFERENCES oauth_clients(id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX oauth_grants_account_idx ON oauth_grants (account_id)`);
    await q.query(`CREATE INDEX oauth_grants_user_idx ON oauth_grants (user_id)`);
    await q.query(`CREATE INDEX oauth_grants_client_idx ON oauth_grants (client_pk)`);
    await q.query(`
      CREATE TABLE oauth_codes (
        id              serial PRIMARY KEY,
        code_hash       char(64) NOT NULL,
        grant_id        integer NOT NULL,
        code_challenge  text NOT NULL,
        redirect_uri    text NOT NULL,
        expires_at      timestamptz NOT NULL,
        used_at         timestamptz,
        created_at      timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT oauth_codes_code_hash_key UNIQUE (code_hash),
        CONSTRAINT oauth_codes_grant_id_fkey FOREIGN KEY (grant_id)
          REFERENCES oauth_grants(id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX oauth_codes_grant_idx ON oauth_codes (grant_id)`);
    await q.query(`
      CREATE TABLE oauth_tokens (
        id          serial PRIMARY KEY,
        token_hash  char(64) NOT NULL,
        grant_id    integer NOT NULL,
        kind        text NOT NULL,
        expires_at  timestamptz NOT NULL,
        used_at     timestamptz,
        revoked_at  timestamptz,
        created_at  timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT oauth_tokens_token_hash_key UNIQUE (token_hash),
        CONSTRAINT oauth_tokens_grant_id_fkey FOREIGN KEY (grant_id)
          REFERENCES oauth_grants(id) ON DELETE CASCADE,
        CONSTRAINT oauth_tokens_kind_check CHECK (kind IN ('access', 'refresh'))
      )`);
    await q.query(`CREATE INDEX oauth_tokens_grant_idx ON oauth_tokens (grant_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE oauth_tokens`);
    await q.query(`DROP TABLE oauth_codes`);
    await q.query(`DROP TABLE oauth_grants`);
    await q.query(`DROP TABLE oauth_clients`);
  }
}
