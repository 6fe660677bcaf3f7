import { Controller, Get, HttpCode, Inject } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import Redis from 'ioredis';
import { ApiError } from '@app/core';
import { REDIS, ReadSql, Sql, StandbyStatus } from '@app/database';
import { Public } from '@app/gateway';

const CHECK_TIMEOUT_MS = 2000;

function withTimeout<T>(p: Promise<T>): Promise<T> {
  return Promise.race([
    p,
    new Promise<T>((_, reject) =>
      setTimeout(() => reject(new Error('timeout')), CHECK_TIMEOUT_MS).unref(),
    ),
  ]);
}

/**
 * Liveness (the process answers) and readiness (PostgreSQL and Redis answer). No key needed.
 * Readiness also shows the read standby's state and lag (DATABASE_READ_URL); a standby that
 * is down or lagging does not make the process unready: its reads go to the primary.
 */
@ApiExcludeController()
@Public()
@Controller('health')
export class HealthController {
  constructor(
    private readonly sql: Sql,
    @Inject(REDIS) private readonly redis: Redis,
    private readonly reads: ReadSql,
  ) {}

  @Get('live')
  live(): { status: string } {
    return { status: 'ok' };
  }

  @Get('ready')
  @HttpCode(200)
  async ready(): Promise<{
    status: string;
    checks: Record<string, string>;
    standby: StandbyStatus;
  }> {
    const [pg, redis] = await Promise.allSettled([
      withTimeout(this.sql.ping()),
      withTimeout(this.redis.ping()),
    ]);
    const checks = {
      postgres: pg.status === 'fulfilled' ? 'ok' : 'down',
      redis: redis.status === 'fulfilled' ? 'ok' : 'down',
    };
    if (checks.postgres !== 'ok' || checks.redis !== 'ok') {
      throw new ApiError('SERVICE_UNAVAILABLE', 'Not ready.', { details: checks });
    }
    return { status: 'ok', checks, standby: this.reads.status() };
  }
}
