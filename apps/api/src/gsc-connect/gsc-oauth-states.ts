import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type Redis from 'ioredis';
import { REDIS, RedisKeys } from '@app/redis';

/** How long a started connect may take to come back from Google. */
export const GSC_STATE_TTL_SECONDS = 600;

/** What a started connect keeps server-side until its callback. */
export interface GscConnectState {
  sessionId: number;
  accountId: number;
  /** The PKCE code verifier (never sent to the browser). */
  verifier: string;
}

/**
 * The `state` of the Google authorization request (docs/gsc-connect.md, "Security"): a random
 * 256-bit value naming, in Redis for GSC_STATE_TTL_SECONDS, the session that started the
 * connect and its PKCE verifier. Taken once (GETDEL): a replayed or second callback finds
 * nothing.
 */
@Injectable()
export class GscOAuthStates {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  async create(state: GscConnectState): Promise<string> {
    const id = randomBytes(32).toString('base64url');
    await this.redis.set(this.key(id), JSON.stringify(state), 'EX', GSC_STATE_TTL_SECONDS);
    return id;
  }

  /** The state's record, removed as it is read; null when unknown, used or expired. */
  async take(id: string): Promise<GscConnectState | null> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(id)) return null;
    const raw = await this.redis.getdel(this.key(id));
    return raw ? (JSON.parse(raw) as GscConnectState) : null;
  }

  private key(id: string): string {
    return this.keys.of('gsc-oauth-state', id);
  }
}
