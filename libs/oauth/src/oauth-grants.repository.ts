import { Injectable } from '@nestjs/common';
import { Sql } from '@app/database';
import { PlanName } from '@app/plans';

interface GrantRow {
  id: number;
  user_id: number;
  account_id: number;
  client_pk: number;
  scopes: string[];
  resource: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

interface CodeRow {
  id: number;
  grant_id: number;
  code_challenge: string;
  redirect_uri: string;
  expires_at: Date;
  used_at: Date | null;
  client_id: string;
  grant_revoked_at: Date | null;
  scopes: string[];
}

interface TokenRow {
  id: number;
  grant_id: number;
  kind: 'access' | 'refresh';
  expires_at: Date;
  used_at: Date | null;
  revoked_at: Date | null;
  client_id: string;
  grant_revoked_at: Date | null;
  scopes: string[];
  resource: string;
  /** The account's plan now (a refresh is refused once the plan has no API access). */
  plan: PlanName;
}

/** What an access-token check needs: the token, its grant, client and the CURRENT account plan. */
interface AccessRow {
  grant_id: number;
  account_id: number;
  expires_at: Date;
  scopes: string[];
  resource: string;
  client_id: string;
  client_name: string;
  last_used_at: Date | null;
  plan: PlanName;
  overrides: Record<string, number | 'unlimited'>;
}

export interface ConnectionRow {
  id: number;
  client_name: string;
  client_id: string;
  scopes: string[];
  created_at: Date;
  last_used_at: Date | null;
}

/** The statements of oauth_grants, oauth_codes and oauth_tokens (one raw statement each). */
@Injectable()
export class OAuthGrantsRepository {
  constructor(private readonly sql: Sql) {}

  /** A grant and its first code, in one statement. */
  async createGrantWithCode(
    g: { userId: number; accountId: number; clientPk: number; scopes: string[]; resource: string },
    code: { hash: string; challenge: string; redirectUri: string; expiresAt: Date },
    now: Date,
  ): Promise<number> {
    const row = await this.sql.one<{ id: number }>(
      `WITH g AS (
         INSERT INTO oauth_grants (user_id, account_id, client_pk, scopes, resource, created_at)
         VALUES ($1, $2, $3, $4::jsonb, $5, $6) RETURNING id)
       INSERT INTO oauth_codes (code_hash, grant_id, code_challenge, redirect_uri, expires_at, created_at)
       SELECT $7, g.id, $8, $9, $10, $6 FROM g RETURNING grant_id AS id`,
      [
        g.userId,
        g.accountId,
        g.clientPk,
        JSON.stringify(g.scopes),
        g.resource,
        now,
        code.hash,
        code.challenge,
        code.redirectUri,
        code.expiresAt,
      ],
    );
    return row!.id;
  }

  findCode(hash: string): Promise<CodeRow | undefined> {
    return this.sql.one<CodeRow>(
      `SELECT c.id, c.grant_id, c.code_challenge, c.redirect_uri, c.expires_at, c.used_at,
              cl.client_id, g.revoked_at AS grant_revoked_at, g.scopes
       FROM oauth_codes c JOIN oauth_grants g ON g.id = c.grant_id
       JOIN oauth_clients cl ON cl.id = g.client_pk
       WHERE c.code_hash = $1`,
      [hash],
    );
  }

  /** Marks a code used; false when it already was (a concurrent or repeated use). */
  async useCode(id: number, now: Date): Promise<boolean> {
    const row = await this.sql.one<{ id: number }>(
      `UPDATE oauth_codes SET used_at = $2 WHERE id = $1 AND used_at IS NULL RETURNING id`,
      [id, now],
    );
    return row !== undefined;
  }

  /** Inserts an access token and a refresh token for a grant. */
  async insertTokenPair(
    grantId: number,
    access: { hash: string; expiresAt: Date },
    refresh: { hash: string; expiresAt: Date },
    now: Date,
  ): Promise<void> {
    await this.sql.run(
      `INSERT INTO oauth_tokens (token_hash, grant_id, kind, expires_at, created_at)
       VALUES ($1, $3, 'access', $4, $6), ($2, $3, 'refresh', $5, $6)`,
      [access.hash, refresh.hash, grantId, access.expiresAt, refresh.expiresAt, now],
    );
  }

  findToken(hash: string): Promise<TokenRow | undefined> {
    return this.sql.one<TokenRow>(
      `SELECT t.id, t.grant_id, t.kind, t.expires_at, t.used_at, t.revoked_at,
              cl.client_id, g.revoked_at AS grant_revoked_at, g.scopes, g.resource, a.plan
       FROM oauth_tokens t JOIN oauth_grants g ON g.id = t.grant_id
       JOIN oauth_clients cl ON cl.id = g.client_pk
       JOIN accounts a ON a.id = g.account_id
       WHERE t.token_hash = $1`,
      [hash],
    );
  }

  /**
   * Spends a refresh token and inserts its successor pair, in one statement: nothing is
   * spent unless the pair is stored, and only while the token is unused and unrevoked and its
   * grant unrevoked. The grant's earlier access tokens are revoked in the same statement (a
   * grant has one line of refresh tokens, so they are the previous ones; the new access token
   * is not visible to that UPDATE, which sees the statement's snapshot). False when that no
   * longer holds (a concurrent or repeated use): then nothing is revoked either.
   */
  async rotateRefresh(
    id: number,
    access: { hash: string; expiresAt: Date },
    refresh: { hash: string; expiresAt: Date },
    now: Date,
  ): Promise<boolean> {
    const rows = await this.sql.rows<{ id: number }>(
      `WITH spent AS (
         UPDATE oauth_tokens t SET used_at = $2
         WHERE t.id = $1 AND t.used_at IS NULL AND t.revoked_at IS NULL
           AND EXISTS (SELECT 1 FROM oauth_grants g WHERE g.id = t.grant_id AND g.revoked_at IS NULL)
         RETURNING t.grant_id),
       superseded AS (
         UPDATE oauth_tokens o SET revoked_at = $2
         FROM spent
         WHERE o.grant_id = spent.grant_id AND o.kind = 'access' AND o.revoked_at IS NULL)
       INSERT INTO oauth_tokens (token_hash, grant_id, kind, expires_at, created_at)
       SELECT v.hash, spent.grant_id, v.kind, v.expires_at, $2
       FROM spent, (VALUES ($3, 'access', $4::timestamptz), ($5, 'refresh', $6::timestamptz))
         AS v (hash, kind, expires_at)
       RETURNING id`,
      [id, now, access.hash, access.expiresAt, refresh.hash, refresh.expiresAt],
    );
    return rows.length === 2;
  }

  async revokeToken(id: number, now: Date): Promise<void> {
    await this.sql.run(
      `UPDATE oauth_tokens SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL`,
      [id, now],
    );
  }

  /** Revokes a grant (and so every code and token of it). With `accountId`, only that account's. */
  async revokeGrant(id: number, now: Date, accountId?: number): Promise<GrantRow | undefined> {
    return this.sql.one<GrantRow>(
      `UPDATE oauth_grants SET revoked_at = COALESCE(revoked_at, $2)
       WHERE id = $1 AND ($3::integer IS NULL OR account_id = $3)
       RETURNING *`,
      [id, now, accountId ?? null],
    );
  }

  /** Ends every live grant of an account (its codes and tokens stop at once); how many. */
  async revokeAccountGrants(accountId: number, now: Date): Promise<number> {
    const rows = await this.sql.rows<{ id: number }>(
      `UPDATE oauth_grants SET revoked_at = $2
       WHERE account_id = $1 AND revoked_at IS NULL
       RETURNING id`,
      [accountId, now],
    );
    return rows.length;
  }

  /** The live access token with this hash: unexpired, unrevoked, grant unrevoked; plan as of now. */
  findAccess(hash: string, now: Date): Promise<AccessRow | undefined> {
    return this.sql.one<AccessRow>(
      `SELECT g.id AS grant_id, g.account_id, t.expires_at, g.scopes, g.resource,
              cl.client_id, cl.client_name, g.last_used_at, a.plan, a.overrides
       FROM oauth_tokens t
       JOIN oauth_grants g ON g.id = t.grant_id
       JOIN oauth_clients cl ON cl.id = g.client_pk
       JOIN accounts a ON a.id = g.account_id
       WHERE t.token_hash = $1 AND t.kind = 'access' AND t.revoked_at IS NULL
         AND t.expires_at > $2 AND g.revoked_at IS NULL`,
      [hash, now],
    );
  }

  /** last_used_at, at most once a minute. */
  async touchGrant(id: number, now: Date): Promise<void> {
    await this.sql.run(
      `UPDATE oauth_grants SET last_used_at = $2
       WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < $2::timestamptz - interval '1 minute')`,
      [id, now],
    );
  }

  /** The account's active connections: unrevoked grants that were exchanged for tokens. */
  listActive(accountId: number): Promise<ConnectionRow[]> {
    return this.sql.rows<ConnectionRow>(
      `SELECT g.id, cl.client_name, cl.client_id, g.scopes, g.created_at, g.last_used_at
       FROM oauth_grants g JOIN oauth_clients cl ON cl.id = g.client_pk
       WHERE g.account_id = $1 AND g.revoked_at IS NULL
         AND EXISTS (SELECT 1 FROM oauth_tokens t WHERE t.grant_id = g.id)
       ORDER BY g.created_at DESC, g.id DESC`,
      [accountId],
    );
  }

  findConnection(id: number, accountId: number): Promise<ConnectionRow | undefined> {
    return this.sql.one<ConnectionRow>(
      `SELECT g.id, cl.client_name, cl.client_id, g.scopes, g.created_at, g.last_used_at
       FROM oauth_grants g JOIN oauth_clients cl ON cl.id = g.client_pk
       WHERE g.id = $1 AND g.account_id = $2 AND g.revoked_at IS NULL`,
      [id, accountId],
    );
  }
}
