import { ThrottlerStorage } from '@nestjs/throttler';
import { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface';
import Redis from 'ioredis';
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

interface Waiting {
  resolve: (record: ThrottlerStorageRecord) => void;
  reject: (err: unknown) => void;
}

/** The requests of one counter waiting for Redis, and whether a call is out. */
interface Lane {
  busy: boolean;
  queue: Waiting[];
}

/**
 * The per-minute limit's storage. Group commit, as the monthly meter's (CallMeterService):
 * while a call for a counter (account and endpoint) is out, that counter's next requests
 * wait and then go together in one script call, each admitted or refused by its place in
 * arrival order, with the count it would have had one by one. A lone request goes at once.
 * Exactness does not depend on it: script calls of other batches and instances are atomic
 * in Redis as before.
 */
export class RedisThrottlerStorage implements ThrottlerStorage {
  private readonly redis: RedisWithThrottle;
  private readonly lanes = new Map<string, Lane>();

  constructor(
    redis: Redis,
    private readonly keys: RedisKeys,
  ) {
    if (!('seoThrottle' in redis))
      redis.defineCommand('seoThrottle', { numberOfKeys: 1, lua: SCRIPT });
    this.redis = redis as RedisWithThrottle;
  }

  increment(key: string, ttl: number, limit: number): Promise<ThrottlerStorageRecord> {
    const laneKey = `${key}\u0000${ttl}\u0000${limit}`;
    return new Promise((resolve, reject) => {
      let lane = this.lanes.get(laneKey);
      if (!lane) {
        lane = { busy: false, queue: [] };
        this.lanes.set(laneKey, lane);
      }
      lane.queue.push({ resolve, reject });
      if (!lane.busy) this.send(laneKey, lane, key, ttl, limit);
    });
  }

  /** Sends the lane's waiting requests as one script call; then the next batch, if any. */
  private send(laneKey: string, lane: Lane, key: string, ttl: number, limit: number): void {
    lane.busy = true;
    const batch = lane.queue.splice(0, MAX_BATCH);
    this.redis
      .seoThrottle(this.keys.of('rl', key), ttl, limit, batch.length)
      .then(
        ([count, pttl, admitted]) => settle(batch, count, pttl, admitted),
        (err: unknown) => {
          for (const w of batch) w.reject(err);
        },
      )
      .finally(() => {
        if (lane.queue.length > 0) {
          this.send(laneKey, lane, key, ttl, limit);
        } else {
          lane.busy = false;
          this.lanes.delete(laneKey);
        }
      });
  }
}

/** Answers each request of a batch by its place: the first `admitted` were counted. */
function settle(batch: Waiting[], count: number, pttl: number, admitted: number): void {
  const seconds = Math.max(1, Math.ceil(pttl / 1000));
  const before = count - admitted;
  batch.forEach((w, i) =>
    w.resolve(
      i < admitted
        ? {
            totalHits: before + i + 1,
            timeToExpire: seconds,
            isBlocked: false,
            timeToBlockExpire: 0,
          }
        : { totalHits: count, timeToExpire: seconds, isBlocked: true, timeToBlockExpire: seconds },
    ),
  );
}
