import { Inject, Injectable } from '@nestjs/common';
import Redis from 'ioredis';
import { REDIS } from './redis.token';

/**
 * Checks the counters and (when asked) counts one failure on each, atomically: when any
 * counter is at its limit nothing is counted and the answer is {1, ms until the blocking
 * window ends}; else, with ARGV[2] = '1', every counter is incremented (a new counter
 * starts its window) and the answer is {0, 0}.
 * KEYS: the counters. ARGV: window ms, count ('1' or '0'), then one limit per key.
 */
const ATTEMPT = `
local window = tonumber(ARGV[1])
local wait = -1
for i, key in ipairs(KEYS) do
  local n = tonumber(redis.call('GET', key) or '0')
  if n >= tonumber(ARGV[i + 2]) then
    local ttl = redis.call('PTTL', key)
    if ttl < 0 then
      redis.call('PEXPIRE', key, window)
      ttl = window
    end
    if ttl > wait then wait = ttl end
  end
end
if wait >= 0 then return {1, wait} end
if ARGV[2] == '1' then
  for _, key in ipairs(KEYS) do
    redis.call('INCR', key)
    if redis.call('PTTL', key) < 0 then redis.call('PEXPIRE', key, window) end
  end
end
return {0, 0}
`;

/** Gives counted attempts back (they succeeded): decrements the counters that still exist. */
const RELEASE = `
for _, key in ipairs(KEYS) do
  local n = tonumber(redis.call('GET', key) or '0')
  if n > 0 then redis.call('DECR', key) end
end
return 0
`;

type FailureRedis = Redis & {
  seoFailureAttempt(numKeys: number, ...args: Array<string | number>): Promise<[number, number]>;
  seoFailureRelease(numKeys: number, ...keys: string[]): Promise<number>;
};

/** One failure counter: its Redis key (build it with RedisKeys.of) and its limit. */
export interface FailureCounter {
  key: string;
  limit: number;
}

export type FailureVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * Fixed-window failure counters in Redis (so they hold across instances), one round trip per
 * call: a window starts at a counter's first failure and lasts `windowMs`; once a counter
 * reaches its limit every attempt is refused until the window ends. Used by the sign-in
 * throttle (reserve before the password check, release on success) and the admin-token
 * throttle (count after the constant-time token check).
 */
@Injectable()
export class FailureWindow {
  private readonly redis: FailureRedis;

  constructor(@Inject(REDIS) redis: Redis) {
    if (!('seoFailureAttempt' in redis)) {
      redis.defineCommand('seoFailureAttempt', { lua: ATTEMPT });
      redis.defineCommand('seoFailureRelease', { lua: RELEASE });
    }
    this.redis = redis as FailureRedis;
  }

  /**
   * Refuses when any counter is at its limit (nothing counted); else counts one failure on
   * every counter when `count` is true.
   */
  async attempt(
    counters: FailureCounter[],
    windowMs: number,
    count: boolean,
  ): Promise<FailureVerdict> {
    const [blocked, waitMs] = await this.redis.seoFailureAttempt(
      counters.length,
      ...counters.map((c) => c.key),
      windowMs,
      count ? '1' : '0',
      ...counters.map((c) => c.limit),
    );
    if (blocked === 1) {
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
    }
    return { allowed: true };
  }

  /** The counted attempt succeeded: it is not a failure, so it no longer counts. */
  async release(keys: string[]): Promise<void> {
    await this.redis.seoFailureRelease(keys.length, ...keys);
  }
}
