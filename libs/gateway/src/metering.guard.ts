import { CanActivate, ExecutionContext, Injectable, Optional } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiError, Clock, monthAfter } from '@app/core';
import { CallMeterService } from '@app/billing';
import { CostGroup } from './decorators';
import { ApiRequest } from './request-context';
import { UsageAlertsHook, endpointName, usageLine } from './usage-line';

/**
 * The monthly call meter, the last global guard: after auth, plan and the per-minute
 * limit, before validation. Every key-authenticated request that reaches an endpoint is
 * counted once (one SQL statement), so errors count too. Research and other routes are
 * refused at the cap; your-data routes are counted and never refused.
 *
 * A guard rather than an interceptor: it runs at the same point of the pipeline, and Nest
 * wraps every interceptor call in an rxjs chain and an AsyncResource, which costs the hot
 * path measurably (docs/performance.md).
 */
@Injectable()
export class MeteringGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly meter: CallMeterService,
    private readonly clock: Clock,
    @Optional() private readonly alerts?: UsageAlertsHook,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<ApiRequest>();
    const auth = req.auth;
    if (!auth) return true; // public route (health, docs, reports, admin)

    const group =
      this.reflector.getAllAndOverride(CostGroup, [context.getHandler(), context.getClass()]) ??
      'other';
    const limit =
      auth.limits.api_calls_per_month === 'unlimited' ? null : auth.limits.api_calls_per_month;
    const line = usageLine(auth, endpointName(req.method, req.route?.path), group);
    // The month is PostgreSQL's (statementTime() is null outside tests).
    const result = await this.meter.consume(
      auth.accountId,
      limit,
      group !== 'your-data',
      this.clock.statementTime(),
      line,
    );
    if (!result.allowed) {
      const resetsAt = monthAfter(result.periodStart);
      throw new ApiError(
        'RATE_LIMITED',
        `Monthly API call limit of ${limit} reached. It resets on ${resetsAt}.`,
        {
          meta: { resets_at: resetsAt, limit },
        },
      );
    }
    req.meter = { used: result.used, limit, periodStart: result.periodStart };
    if (limit !== null && this.alerts) {
      const alerting = this.alerts.counted(auth, result.used, limit, result.periodStart);
      if (alerting) await alerting;
    }
    return true;
  }
}
