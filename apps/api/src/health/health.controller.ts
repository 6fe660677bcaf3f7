import { Controller, Get, HttpCode } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { ApiError } from '@app/core';
import { ClockSkewMonitor, ClockSkewStatus, ReadSql, StandbyStatus } from '@app/database';
import { Public } from '@app/gateway';
import { Readiness } from './readiness';

/**
 * Liveness (the process answers) and readiness (PostgreSQL and Redis answer). No key needed.
 * Readiness also shows the read standby's state and lag (DATABASE_READ_URL); a standby that
 * is down or lagging does not make the process unready: its reads go to the primary. It also
 * shows this process's clock against PostgreSQL's (`clock`, checked every 30 s): reported,
 * never failing readiness (docs/reliability.md, "Clocks").
 */
@ApiExcludeController()
@Public()
@Controller('health')
export class HealthController {
  constructor(
    private readonly readiness: Readiness,
    private readonly reads: ReadSql,
    private readonly clockSkew: ClockSkewMonitor,
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
    clock: ClockSkewStatus;
  }> {
    const checks = await this.readiness.check();
    if (checks.postgres !== 'ok' || checks.redis !== 'ok') {
      throw new ApiError('SERVICE_UNAVAILABLE', 'Not ready.', { details: checks });
    }
    return { status: 'ok', checks, standby: this.reads.status(), clock: this.clockSkew.status() };
  }
}
