import { Injectable } from '@nestjs/common';
import { Sql } from '@app/database';

/** A session with what the request needs of its user (a join, not a table). */
interface SessionRow {
  session_id: number;
  user_id: number;
  email: string;
  account_id: number;
  last_seen_at: Date;
  expires_at: Date;
}

/** The statements of sessions (one raw statement each). */
@Injectable()
export class SessionsRepository {
  constructor(private readonly sql: Sql) {}

  async create(
    tokenHash: string,
    userId: number,
    accountId: number,
    now: Date,
    expiresAt: Date,
  ): Promise<number> {
    const row = await this.sql.one<{ id: number }>(
      `INSERT INTO sessions (token_hash, user_id, account_id, created_at, last_seen_at, expires_at)
       VALUES ($1, $2, $3, $4, $4, $5) RETURNING id`,
      [tokenHash, userId, accountId, now, expiresAt],
    );
    return row!.id;
  }

  /** The session with this token hash and its user, expired or not. */
  find(tokenHash: string): Promise<SessionRow | undefined> {
    return this.sql.one<SessionRow>(
      `SELECT s.id AS session_id, s.user_id, u.email, s.account_id, s.last_seen_at, s.expires_at
       FROM sessions s JOIN users u ON u.id = s.user_id
       WHERE s.token_hash = $1`,
      [tokenHash],
    );
  }

  async touch(id: number, at: Date): Promise<void> {
    await this.sql.run(
      `UPDATE sessions SET last_seen_at = $2 WHERE id = $1 AND last_seen_at < $2`,
      [id, at],
    );
  }

  async deleteById(id: number): Promise<void> {
    await this.sql.run(`DELETE FROM sessions WHERE id = $1`, [id]);
  }

  async deleteByHash(tokenHash: string): Promise<void> {
    await this.sql.run(`DELETE FROM sessions WHERE token_hash = $1`, [tokenHash]);
  }

  /** Ends every session of a user but `exceptId` (when given). */
  async deleteForUser(userId: number, exceptId: number | null): Promise<void> {
    await this.sql.run(`DELETE FROM sessions WHERE user_id = $1 AND id IS DISTINCT FROM $2`, [
      userId,
      exceptId,
    ]);
  }

  /** Removes a user's sessions that have expired (idle since `idleBefore`, or past their end). */
  async purgeExpired(userId: number, now: Date, idleBefore: Date): Promise<void> {
    await this.sql.run(
      `DELETE FROM sessions WHERE user_id = $1 AND (expires_at <= $2 OR last_seen_at <= $3)`,
      [userId, now, idleBefore],
    );
  }
}
