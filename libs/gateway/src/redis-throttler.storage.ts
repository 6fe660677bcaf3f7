import { ThrottlerStorage } from '@nestjs/throttler';
import { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface';
import Redis from 'ioredis';
import { RedisKeys } from '@app/redis';

/**
 * Fixed-window counter in Redis, one round trip (EVALSHA) per request, shared by every
 * API instance. A refused request is not counted, so the window always ends after its
 * TTL and waiting `retry_after` seconds always clears the limit.
 */
const SCRIPT = `
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
local limit = tonumber(ARGV[2])
if current >= limit then
  local ttl = redis.call('PTTL', KEYS[1])
  if ttl < 0 then
    redis.call('PEXPIRE', KEYS[1], ARGV[1])
    ttl = tonumber(ARGV[1])
  end
  return {current, ttl, 1}
end
current = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {current, ttl, 0}
`;

type RedisWithThrottle = Redis & {
  seoThrottle(key: string, ttlMs: number, limit: number): Promise<[number, number, number]>;
};

export class RedisThrottlerStorage implements ThrottlerStorage {
  private readonly redis: RedisWithThrottle;

  constructor(
    redis: Redis,
    private readonly keys: RedisKeys,
  ) {
    if (!('seoThrottle' in redis))
      redis.defineCommand('seoThrottle', { numberOfKeys: 1, lua: SCRIPT });
    this.redis = redis as RedisWithThrottle;
  }

  async increment(key: string, ttl: number, limit: number): Promise<ThrottlerStorageRecord> {
    const [hits, pttl, blocked] = await this.redis.seoThrottle(this.keys.of('rl', key), ttl, limit);
    const seconds = Math.max(1, Math.ceil(pttl / 1000));
    return {
      totalHits: hits,
      timeToExpire: seconds,
      isBlocked: blocked === 1,
      timeToBlockExpire: blocked === 1 ? seconds : 0,
    };
  }
}
