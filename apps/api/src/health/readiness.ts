import { Inject, Injectable } from '@nestjs/common';
import Redis from 'ioredis';
import { Sql } from '@app/database';
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

/** Whether PostgreSQL and Redis answer (a ping each, at most 2 s): /health/ready and the home page. */
@Injectable()
export class Readiness {
  constructor(
    private readonly sql: Sql,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  async check(): Promise<DependencyChecks> {
    const [pg, redis] = await Promise.allSettled([
      withTimeout(this.sql.ping()),
      withTimeout(this.redis.ping()),
    ]);
    return {
      postgres: pg.status === 'fulfilled' ? 'ok' : 'down',
      redis: redis.status === 'fulfilled' ? 'ok' : 'down',
    };
  }
}
