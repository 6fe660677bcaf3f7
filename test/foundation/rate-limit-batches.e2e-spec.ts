import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { AppConfig, loadConfig } from '@app/core';
import { RedisKeys } from '@app/redis';
import { RedisThrottlerStorage } from '@app/gateway';

const WINDOW_MS = 60_000;

/**
 * The per-minute limit's storage batches the concurrent requests of one counter into one
 * script call (group commit, docs/pipeline-and-metering.md): each request gets the answer it
 * would have had one by one, exactly, against the real Redis, across instances too.
 */
describe('RedisThrottlerStorage: concurrent requests of one counter share script calls', () => {
  const config = loadConfig(process.env);
  const keys = new RedisKeys({
    ...config,
    redisPrefix: `${process.env.REDIS_PREFIX}:rl-batches-${randomBytes(4).toString('hex')}`,
  } as AppConfig);
  const connections: Redis[] = [];

  /** A storage on a connection of its own, as one API instance has, and its script calls. */
  function instance(): { storage: RedisThrottlerStorage; calls: () => number } {
    const redis = new Redis(config.redisUrl);
    connections.push(redis);
    const storage = new RedisThrottlerStorage(redis, keys);
    const spy = jest.spyOn(redis as unknown as { seoThrottle: () => unknown }, 'seoThrottle');
    return { storage, calls: () => spy.mock.calls.length };
  }

  afterAll(async () => {
    const redis = connections[0];
    const left = await redis.keys(keys.of('*'));
    if (left.length) await redis.del(...left);
    await Promise.all(connections.map((c) => c.quit()));
  });

  it('a lone request goes at once and is counted', async () => {
    const { storage, calls } = instance();
    const record = await storage.increment('lone', WINDOW_MS, 5);
    expect(record).toEqual({
      totalHits: 1,
      timeToExpire: 60,
      isBlocked: false,
      timeToBlockExpire: 0,
    });
    expect(calls()).toBe(1);
  });

  it('200 concurrent requests with a limit of 50: exactly 50 admitted, counts 1-50 once each, in far fewer calls', async () => {
    const { storage, calls } = instance();
    const records = await Promise.all(
      Array.from({ length: 200 }, () => storage.increment('burst', WINDOW_MS, 50)),
    );
    const admitted = records.filter((r) => !r.isBlocked);
    expect(admitted.map((r) => r.totalHits)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    const refused = records.filter((r) => r.isBlocked);
    expect(refused).toHaveLength(150);
    for (const r of refused) {
      expect(r.totalHits).toBe(50);
      expect(r.timeToBlockExpire).toBe(r.timeToExpire);
      expect(r.timeToExpire).toBeGreaterThan(0);
    }
    // Arrival order: the admitted requests are the first 50.
    expect(records.slice(0, 50).every((r) => !r.isBlocked)).toBe(true);
    expect(Number(await connections[connections.length - 1].get(keys.of('rl', 'burst')))).toBe(50);
    expect(calls()).toBeLessThan(10);
  });

  it('two instances over one Redis: 2 × 100 concurrent requests with a limit of 120 admit exactly 120', async () => {
    const a = instance();
    const b = instance();
    const records = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        (i % 2 ? a : b).storage.increment('shared', WINDOW_MS, 120),
      ),
    );
    const admitted = records.filter((r) => !r.isBlocked).map((r) => r.totalHits);
    expect(admitted.sort((x, y) => x - y)).toEqual(Array.from({ length: 120 }, (_, i) => i + 1));
    expect(records.filter((r) => r.isBlocked)).toHaveLength(80);
    expect(Number(await connections[0].get(keys.of('rl', 'shared')))).toBe(120);
  });

  it('counters of other endpoints and limits are batched apart', async () => {
    const { storage } = instance();
    const [x, y, z] = await Promise.all([
      storage.increment('endpoint-a', WINDOW_MS, 1),
      storage.increment('endpoint-b', WINDOW_MS, 1),
      storage.increment('endpoint-a', WINDOW_MS, 1),
    ]);
    expect([x.isBlocked, y.isBlocked, z.isBlocked]).toEqual([false, false, true]);
    expect([x.totalHits, y.totalHits, z.totalHits]).toEqual([1, 1, 1]);
  });
});
