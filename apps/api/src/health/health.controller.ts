import { Controller, Get, HttpCode, Inject } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { APP_CONFIG, ApiError, AppConfig } from '@app/core';
import {
  ClockSkewMonitor,
  ClockSkewStatus,
  PostgresPing,
  PrimaryNodeStatus,
  ReadSql,
  StandbyStatus,
} from '@app/database';
import { Public } from '@app/gateway';
import { MemoryPolicyStatus, RedisMemoryPolicy } from '@app/redis';
import { Readiness } from './readiness';

/**
 * Liveness (the process answers) and readiness (PostgreSQL and Redis answer). No key needed.
 * Readiness also shows the read standby's state and lag (DATABASE_READ_URL); a standby that
 * is down or lagging does not make the process unready: its reads go to the primary.
 *
 * Readiness also shows Redis's maxmemory-policy as last read (start-up, then every minute and
 * on each reconnection: RedisMemoryPolicyWatch), without a round trip per probe. In
 * production an evicting policy makes the process unready (503), as it would refuse to start
 * (docs/reliability.md, "Redis memory policy"); in development it is shown only.
 *
 * It also shows this process's clock against PostgreSQL's (`clock`, checked every 30 s):
 * reported, never failing readiness (docs/reliability.md, "Clocks").
 *
 * `primary`: the node DATABASE_URL reached at the last readiness ping (behind HAProxy, the
 * Patroni leader), whether it is in recovery, and its standbys' replication and sync states
 * (docs/operations.md, "PostgreSQL primary failover").
 */
@ApiExcludeController()
@Public()
@Controller('health')
export class HealthController {
  constructor(
    private readonly readiness: Readiness,
    private readonly reads: ReadSql,
    private readonly memoryPolicy: RedisMemoryPolicy,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clockSkew: ClockSkewMonitor,
    private readonly postgres: PostgresPing,
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
    primary: PrimaryNodeStatus | null;
    redis_memory_policy: MemoryPolicyStatus;
    clock: ClockSkewStatus;
  }> {
    const checks = await this.readiness.check();
    const policy = this.memoryPolicy.status();
    if (checks.postgres !== 'ok' || checks.redis !== 'ok') {
      throw new ApiError('SERVICE_UNAVAILABLE', 'Not ready.', {
        details: { ...checks, redis_memory_policy: policy.policy },
      });
    }
    const problem = this.memoryPolicy.problem();
    if (problem && this.config.production) {
      throw new ApiError('SERVICE_UNAVAILABLE', `Not ready. ${problem}`, {
        details: { ...checks, redis_memory_policy: policy.policy },
      });
    }
    return {
      status: 'ok',
      checks,
      standby: this.reads.status(),
      primary: this.postgres.node(),
      redis_memory_policy: policy,
      clock: this.clockSkew.status(),
    };
  }
}
