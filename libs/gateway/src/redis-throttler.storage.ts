import { ThrottlerStorage } from '@nestjs/throttler';
import { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface';
import Redis from 'ioredis';
import { GroupCommit } from '@app/core';
import { RedisKeys } from '@app/redis';

/**
 * Fixed-window counter in Redis, one round trip (EVALSHA) per batch of requests, shared by
 * every API instance. ARGV: window (ms), limit, how many requests the batch holds. Of those,
 * as many as fit under the limit are counted; the rest are refused and not counted, so the
 * window always ends after its TTL and waiting `retry_after` seconds always clears the limit.
 * Returns the count after the batch, the window's remaining ms and how many were admitted.
 */
const SCRIPT = `
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
local limit = tonumber(ARGV[2])
local admitted = math.min(tonumber(ARGV[3]), math.max(0, limit - current))
if admitted > 0 then
  current = redis.call('INCRBY', KEYS[1], admitted)
end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {current, ttl, admitted}
`;

type RedisWithThrottle = Redis & {
  seoThrottle(
    key: string,
    ttlMs: number,
    limit: number,
    n: number,
  ): Promise<[number, number, number]>;
};

/** The most requests one script call takes. */
const MAX_BATCH = 500;

/**
 * The per-minute limit's storage. Group commit (GroupCommit), as the monthly meter's
 * (CallMeterService): while a call for a counter (account and endpoint) is out, that
 * counter's next requests wait and then go together in one script call, each admitted or
 * refused by its place in arrival order, with the count it would have had one by one. A lone
 * request goes at once. Exactness does not depend on it: script calls of other batches and
 * instances are atomic in Redis as before.
 */
export class RedisThrottlerStorage implements ThrottlerStorage {
  private readonly redis: RedisWithThrottle;
  private readonly batches = new GroupCommit<null, ThrottlerStorageRecord>(MAX_BATCH);

  constructor(
    redis: Redis,
    private readonly keys: RedisKeys,
  ) {
    if (!('seoThrottle' in redis))
      redis.defineCommand('seoThrottle', { numberOfKeys: 1, lua: SCRIPT });
    this.redis = redis as RedisWithThrottle;
  }

  increment(key: string, ttl: number, limit: number): Promise<ThrottlerStorageRecord> {
    return this.batches.submit(`${key}\u0000${ttl}\u0000${limit}`, null, (batch) =>
      this.redis
        .seoThrottle(this.keys.of('rl', key), ttl, limit, batch.length)
        .then(([count, pttl, admitted]) => records(batch.length, count, pttl, admitted)),
    );
  }
}

/** The answer to each request of a batch by its place: the first `admitted` were counted. */
function records(
  size: number,
  count: number,
  pttl: number,
  admitted: number,
): ThrottlerStorageRecord[] {
  const seconds = Math.max(1, Math.ceil(pttl / 1000));
  const before = count - admitted;
  return Array.from({ length: size }, (_, i) =>
    i < admitted
      ? {
          totalHits: before + i + 1,
          timeToExpire: seconds,
          isBlocked: false,
          timeToBlockExpire: 0,
        }
      : { totalHits: count, timeToExpire: seconds, isBlocked: true, timeToBlockExpire: seconds },
  );
}
