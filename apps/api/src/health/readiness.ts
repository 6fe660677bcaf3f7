import { Inject, Injectable } from '@nestjs/common';
import Redis from 'ioredis';
import { PostgresPing } from '@app/database';
import { REDIS } from '@app/redis';

const CHECK_TIMEOUT_MS = 2000;

function withTimeout<T>(p: Promise<T>): Promise<T> {
  return Promise.race([
    p,
    new Promise<T>((_, reject) =>
      setTimeout(() => reject(new Error('timeout')), CHECK_TIMEOUT_MS).unref(),
    ),
  ]);
}

export type DependencyChecks = Record<'postgres' | 'redis', 'ok' | 'down'>;

/**
 * Whether PostgreSQL and Redis answer (a ping each, at most 2 s): /health/ready and the home
 * page. PostgreSQL is asked on a connection of its own (PostgresPing), never through the
 * request pool: a pool whose slots are all busy is not "not ready" (docs/reliability.md,
 * "Timeouts").
 */
@Injectable()
export class Readiness {
  constructor(
    private readonly postgres: PostgresPing,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  async check(): Promise<DependencyChecks> {
    const [pg, redis] = await Promise.allSettled([
      this.postgres.ping(CHECK_TIMEOUT_MS),
      withTimeout(this.redis.ping()),
    ]);
    return {
      postgres: pg.status === 'fulfilled' ? 'ok' : 'down',
      redis: redis.status === 'fulfilled' ? 'ok' : 'down',
    };
  }
}
