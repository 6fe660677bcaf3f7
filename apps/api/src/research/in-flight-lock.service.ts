import { randomUUID, createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import Redis from 'ioredis';
import { REDIS, RedisKeys } from '@app/redis';

const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;

interface HeldLock {
  key: string;
  token: string;
}

/**
 * "This request is being fetched for this account": SET NX PX in Redis (shared by every
 * API instance), released only by its owner token, expiring by itself if the owner dies.
 */
@Injectable()
export class InFlightLockService {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  keyOf(kind: string, accountId: number, requestKey: string): string {
    const digest = createHash('sha256').update(requestKey).digest('hex').slice(0, 32);
    return this.keys.of('inflight', kind, accountId, digest);
  }

  async acquire(key: string, ttlMs: number): Promise<HeldLock | null> {
    const token = randomUUID();
    const ok = await this.redis.set(key, token, 'PX', ttlMs, 'NX');
    return ok === 'OK' ? { key, token } : null;
  }

  /** Deletes the lock only when it still holds our token; true when it did. */
  async release(lock: HeldLock): Promise<boolean> {
    const n = (await this.redis.eval(RELEASE, 1, lock.key, lock.token)) as number;
    return n === 1;
  }
}
