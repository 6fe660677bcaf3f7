import { Inject, Injectable } from '@nestjs/common';
import type Redis from 'ioredis';
import { Clock } from '@app/core';
import { REDIS, RedisKeys } from '@app/database';

/** Dynamic registrations allowed per client IP per clock hour (the contract asks for at least 20). */
export const REGISTRATIONS_PER_HOUR = 30;

/**
 * The per-IP limit of RFC 7591 registrations, in Redis (shared by every instance): one
 * counter per IP and clock hour (the injected Clock's), expiring with the hour.
 */
@Injectable()
export class RegistrationThrottle {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly clock: Clock,
  ) {}

  /** Counts one registration; the seconds to wait when over the limit, else null. */
  async take(ip: string): Promise<number | null> {
    const nowMs = this.clock.now().getTime();
    const hour = Math.floor(nowMs / 3_600_000);
    const key = this.keys.of('oauth-register', ip.slice(0, 64), hour);
    const [[, count]] = (await this.redis.multi().incr(key).expire(key, 3700).exec()) as [
      [Error | null, number],
    ];
    if (count <= REGISTRATIONS_PER_HOUR) return null;
    return Math.max(1, Math.ceil(((hour + 1) * 3_600_000 - nowMs) / 1000));
  }
}
