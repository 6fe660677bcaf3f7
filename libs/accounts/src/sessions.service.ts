import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Clock } from '@app/core';
import { SessionsRepository } from './sessions.repository';

/** A signed-in person, as the session guard sets it on the request. */
export interface SessionContext {
  sessionId: number;
  userId: number;
  email: string;
  accountId: number;
}

/** A session ends after this long without use. */
const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
/** A session ends this long after sign-in, used or not. */
export const SESSION_MAX_MS = 7 * 24 * 60 * 60 * 1000;
/** last_seen_at is written at most this often per session. */
const SESSION_TOUCH_MS = 60 * 1000;

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** SHA-256 (hex) of a session token: what is stored (a 256-bit random token needs no slow hash). */
function hashSessionToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * Server-side sessions in PostgreSQL: a random 256-bit token (base64url) goes to the cookie,
 * only its SHA-256 is stored. Every request validates in PostgreSQL, so ending a session
 * takes effect on every API instance at once. Idle expiry 12 hours, absolute 7 days, both
 * on the injected Clock.
 */
@Injectable()
export class SessionsService {
  constructor(
    private readonly sessions: SessionsRepository,
    private readonly clock: Clock,
  ) {}

  /** Starts a session for a user; answers the token (for the cookie only, never stored). */
  async start(userId: number, accountId: number): Promise<{ token: string; sessionId: number }> {
    const now = this.clock.now();
    await this.sessions.purgeExpired(userId, now, new Date(now.getTime() - SESSION_IDLE_MS));
    const token = randomBytes(32).toString('base64url');
    const sessionId = await this.sessions.create(
      hashSessionToken(token),
      userId,
      accountId,
      now,
      new Date(now.getTime() + SESSION_MAX_MS),
    );
    return { token, sessionId };
  }

  /** The session behind a token, or null when it is unknown, ended or expired. Records the use. */
  async resolve(token: string): Promise<SessionContext | null> {
    if (typeof token !== 'string' || !TOKEN_PATTERN.test(token)) return null;
    const row = await this.sessions.find(hashSessionToken(token));
    if (!row) return null;
    const now = this.clock.now().getTime();
    const lastSeen = row.last_seen_at.getTime();
    if (now >= row.expires_at.getTime() || now >= lastSeen + SESSION_IDLE_MS) {
      await this.sessions.deleteById(row.session_id);
      return null;
    }
    if (now - lastSeen >= SESSION_TOUCH_MS) {
      await this.sessions.touch(row.session_id, new Date(now));
    }
    return {
      sessionId: row.session_id,
      userId: row.user_id,
      email: row.email,
      accountId: row.account_id,
    };
  }

  /** Ends the session behind a token (nothing when unknown). */
  async end(token: string): Promise<void> {
    if (typeof token !== 'string' || !TOKEN_PATTERN.test(token)) return;
    await this.sessions.deleteByHash(hashSessionToken(token));
  }

  /** Ends every session of a user, except `exceptSessionId` when given. */
  async endAllForUser(userId: number, exceptSessionId?: number): Promise<void> {
    await this.sessions.deleteForUser(userId, exceptSessionId ?? null);
  }
}
