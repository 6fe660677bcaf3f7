import { Injectable } from '@nestjs/common';
import { Sql } from './sql';

/** What a request sends under an Idempotency-Key: who, which key, which request. */
export interface IdempotencyRequest {
  accountId: number;
  key: string;
  /** Method and route template, e.g. `POST /api/v1/site-audit`. */
  route: string;
  /** sha256 (hex) of the canonical JSON of path parameters, query and body. */
  requestHash: string;
}

/** A key's row as another request of the same key finds it. */
export interface IdempotencyRecord {
  route: string;
  requestHash: string;
  state: 'running' | 'complete';
  lockedUntil: Date | null;
  expiresAt: Date;
  status: number | null;
  headers: Record<string, string> | null;
  body: Buffer | null;
}

/** The answer kept for replay. */
export interface IdempotentAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * The statements of `idempotency_keys` (migration 1765230000000). The rules (what a repeat
 * gets, which answers are kept) are in the gateway's IdempotencyGuard; the purge runs in the
 * worker.
 */
@Injectable()
export class IdempotencyKeysRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * Claims the key for this request in one statement: a new key, or one whose 24 hours are
   * over, or a claim of the same request whose lease ran out (its process was killed). Under
   * concurrency exactly one request gets the claim: the others wait on the row's lock and
   * then see it taken. Answers true when this request holds the claim.
   *
   * Committed asynchronously (set_config(..., true): this statement's transaction only): a
   * claim matters once the request charges or starts something, and every such write commits
   * synchronously after it, which flushes the WAL up to and including the claim. A claim lost
   * in a PostgreSQL crash before that had nothing behind it: the retry runs, as after a 5xx.
   * Saves one WAL flush per keyed request (about 9 ms of a 30 ms POST on the shared 2-core
   * test machine, p50 of 150 interleaved runs). The answer is kept with a synchronous commit.
   */
  async claim(
    req: IdempotencyRequest,
    claim: string,
    now: Date,
    leaseUntil: Date,
    expiresAt: Date,
  ): Promise<boolean> {
    const rows = await this.sql.rows<{ claim: string }>(
      `WITH async_commit AS (SELECT set_config('synchronous_commit', 'off', true))
       INSERT INTO idempotency_keys AS k
         (account_id, key, route, request_hash, state, claim, locked_until, created_at, expires_at)
       SELECT $1, $2, $3, $4, 'running', $5::uuid, $6::timestamptz, $7::timestamptz, $8::timestamptz
       FROM async_commit
       ON CONFLICT (account_id, key) DO UPDATE SET
         route = EXCLUDED.route, request_hash = EXCLUDED.request_hash, state = 'running',
         claim = EXCLUDED.claim, locked_until = EXCLUDED.locked_until,
         status = NULL, headers = NULL, body = NULL,
         created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
       WHERE k.expires_at <= EXCLUDED.created_at
          OR (k.state = 'running' AND k.locked_until <= EXCLUDED.created_at
              AND k.route = EXCLUDED.route AND k.request_hash = EXCLUDED.request_hash)
       RETURNING claim`,
      [req.accountId, req.key, req.route, req.requestHash, claim, leaseUntil, now, expiresAt],
    );
    return rows.length === 1 && rows[0].claim === claim;
  }

  /** The key's row, or undefined (never claimed, released or purged). */
  async find(accountId: number, key: string): Promise<IdempotencyRecord | undefined> {
    const row = await this.sql.one<{
      route: string;
      request_hash: string;
      state: 'running' | 'complete';
      locked_until: Date | null;
      expires_at: Date;
      status: number | null;
      headers: Record<string, string> | null;
      body: Buffer | null;
    }>(
      `SELECT route, request_hash, state, locked_until, expires_at, status, headers, body
       FROM idempotency_keys WHERE account_id = $1 AND key = $2`,
      [accountId, key],
    );
    if (!row) return undefined;
    return {
      route: row.route,
      requestHash: row.request_hash,
      state: row.state,
      lockedUntil: row.locked_until,
      expiresAt: row.expires_at,
      status: row.status,
      headers: row.headers,
      body: row.body,
    };
  }

  /** Keeps the claiming request's answer; false when the claim is no longer this request's. */
  async complete(
    accountId: number,
    key: string,
    claim: string,
    answer: IdempotentAnswer,
  ): Promise<boolean> {
    const rows = await this.sql.rows<{ key: string }>(
      `UPDATE idempotency_keys
       SET state = 'complete', locked_until = NULL, status = $4, headers = $5::jsonb, body = $6
       WHERE account_id = $1 AND key = $2 AND claim = $3 AND state = 'running'
       RETURNING key`,
      [accountId, key, claim, answer.status, JSON.stringify(answer.headers), answer.body],
    );
    return rows.length === 1;
  }

  /** Gives the key up (the request ended in a 5xx): a retry runs again. */
  async release(accountId: number, key: string, claim: string): Promise<void> {
    await this.sql.run(
      `DELETE FROM idempotency_keys
       WHERE account_id = $1 AND key = $2 AND claim = $3 AND state = 'running'`,
      [accountId, key, claim],
    );
  }

  /** Deletes up to `limit` rows whose 24 hours ended before `now`; answers how many. */
  async purgeExpired(now: Date, limit: number): Promise<number> {
    const rows = await this.sql.rows<{ key: string }>(
      `DELETE FROM idempotency_keys
       WHERE (account_id, key) IN (
         SELECT account_id, key FROM idempotency_keys WHERE expires_at <= $1
         ORDER BY expires_at LIMIT $2)
       RETURNING key`,
      [now, limit],
    );
    return rows.length;
  }
}
