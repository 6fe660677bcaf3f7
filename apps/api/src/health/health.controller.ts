import { Controller, Get, HttpCode, Inject, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
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
import { OpsAuth } from '../ops/ops-auth';
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
 *
 * The nodes' internal addresses and ports (`primary.address`/`port`, `standby.node`) and the
 * replicas' names are shown only to an operator: a request with the admin token (or
 * METRICS_TOKEN) as its bearer, the same check as /metrics. Without an Authorization header
 * the answer has everything else (a load balancer's probe needs only the status); a wrong
 * bearer is a 401 and counts on the admin-token throttle, so the endpoint is no oracle for
 * guessing the token.
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
    private readonly ops: OpsAuth,
  ) {}

  @Get('live')
  live(): { status: string } {
    return { status: 'ok' };
  }

  @Get('ready')
  @HttpCode(200)
  async ready(@Req() req: Request): Promise<{
    status: string;
    checks: Record<string, string>;
    standby: StandbyStatus | PublicStandbyStatus;
    primary: PrimaryNodeStatus | PublicPrimaryStatus | null;
    redis_memory_policy: MemoryPolicyStatus;
    clock: ClockSkewStatus;
  }> {
    const operator = await this.operator(req);
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
    const standby = this.reads.status();
    const primary = this.postgres.node();
    return {
      status: 'ok',
      checks,
      standby: operator ? standby : publicStandby(standby),
      primary: operator || primary === null ? primary : publicPrimary(primary),
      redis_memory_policy: policy,
      clock: this.clockSkew.status(),
    };
  }

  /**
   * True when the request carries the admin token or METRICS_TOKEN as its bearer; false
   * without an Authorization header; a 401 (counted on the admin-token throttle) otherwise.
   */
  private async operator(req: Request): Promise<boolean> {
    if (req.headers.authorization === undefined) return false;
    const ok = this.ops.bearerOk(req, true);
    await this.ops.throttleOrThrow(req, !ok);
    if (!ok) {
      throw new ApiError(
        'UNAUTHORIZED',
        'Invalid operator token. Send the admin token (or METRICS_TOKEN) to see the nodes, or no Authorization header for the public view.',
      );
    }
    return true;
  }
}

/** The read standby as anyone may see it: its state and lag, not its address. */
export type PublicStandbyStatus = Omit<StandbyStatus, 'node'>;

/** The primary as anyone may see it: recovery and replication states, no address or names. */
export interface PublicPrimaryStatus {
  in_recovery: boolean;
  replication: Array<{ state: string | null; sync_state: string | null }>;
  checked_at: string;
}

function publicStandby({ state, lag_ms }: StandbyStatus): PublicStandbyStatus {
  return { state, lag_ms };
}

function publicPrimary(p: PrimaryNodeStatus): PublicPrimaryStatus {
  return {
    in_recovery: p.in_recovery,
    replication: p.replication.map(({ state, sync_state }) => ({ state, sync_state })),
    checked_at: p.checked_at,
  };
}
