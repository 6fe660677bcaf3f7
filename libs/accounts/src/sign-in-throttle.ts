import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import Redis from 'ioredis';
import { APP_CONFIG, AppConfig } from '@app/core';
import { REDIS, RedisKeys } from '@app/database';

/** Failed sign-ins allowed per email (lower-cased) within the window. */
export const SIGN_IN_FAILURES_PER_EMAIL = 10;
/** Failed sign-ins allowed per client IP within the window. */
export const SIGN_IN_FAILURES_PER_IP = 50;

/**
 * Reserves one attempt on both counters, atomically: when either is at its limit nothing is
 * counted and the answer is {1, ms until the blocking window ends}; else both are
 * incremented (a new counter starts its window) and the answer is {0, 0}.
 * KEYS: email counter, IP counter. ARGV: window ms, email limit, IP limit.
 */
const RESERVE = `
local window = tonumber(ARGV[1])
local wait = -1
for i, key in ipairs(KEYS) do
  local n = tonumber(redis.call('GET', key) or '0')
  if n >= tonumber(ARGV[i + 1]) then
    local ttl = redis.call('PTTL', key)
    if ttl < 0 then
      redis.call('PEXPIRE', key, window)
      ttl = window
    end
    if ttl > wait then wait = ttl end
  end
end
if wait >= 0 then return {1, wait} end
for _, key in ipairs(KEYS) do
  redis.call('INCR', key)
  if redis.call('PTTL', key) < 0 then redis.call('PEXPIRE', key, window) end
end
return {0, 0}
`;

/** Gives a reserved attempt back (it succeeded): decrements the counters that still exist. */
const RELEASE = `
for _, key in ipairs(KEYS) do
  local n = tonumber(redis.call('GET', key) or '0')
  if n > 0 then redis.call('DECR', key) end
end
return 0
`;

type ThrottleRedis = Redis & {
  seoSignInReserve(
    emailKey: string,
    ipKey: string,
    windowMs: number,
    emailLimit: number,
    ipLimit: number,
  ): Promise<[number, number]>;
  seoSignInRelease(emailKey: string, ipKey: string): Promise<number>;
};

export type ThrottleVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * The sign-in failure throttle, in Redis so it holds across API instances: per email
 * (lower-cased, hashed in the key) at most 10 failures and per client IP at most 50
 * failures within SIGN_IN_WINDOW_SECONDS (15 minutes). Every attempt is reserved before the
 * password is checked (so concurrent guesses cannot overshoot the limit) and given back when
 * it succeeds, so what stays counted is the failures. A fixed window from the first failure.
 */
@Injectable()
export class SignInThrottle {
  private readonly redis: ThrottleRedis;

  constructor(
    @Inject(REDIS) redis: Redis,
    private readonly keys: RedisKeys,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    if (!('seoSignInReserve' in redis)) {
      redis.defineCommand('seoSignInReserve', { numberOfKeys: 2, lua: RESERVE });
      redis.defineCommand('seoSignInRelease', { numberOfKeys: 2, lua: RELEASE });
    }
    this.redis = redis as ThrottleRedis;
  }

  /** Counts one attempt for the email and the IP, unless either is already at its limit. */
  async reserve(email: string, ip: string): Promise<ThrottleVerdict> {
    const [blocked, waitMs] = await this.redis.seoSignInReserve(
      this.emailKey(email),
      this.ipKey(ip),
      this.config.signInWindowSeconds * 1000,
      SIGN_IN_FAILURES_PER_EMAIL,
      SIGN_IN_FAILURES_PER_IP,
    );
    if (blocked === 1) {
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
    }
    return { allowed: true };
  }

  /** The attempt succeeded: it is not a failure, so it no longer counts. */
  async release(email: string, ip: string): Promise<void> {
    await this.redis.seoSignInRelease(this.emailKey(email), this.ipKey(ip));
  }

  private emailKey(email: string): string {
    const digest = createHash('sha256').update(email.trim().toLowerCase(), 'utf8').digest('hex');
    return this.keys.of('signin', 'email', digest);
  }

  private ipKey(ip: string): string {
    return this.keys.of('signin', 'ip', ip || 'unknown');
  }
}
