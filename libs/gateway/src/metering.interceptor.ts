import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { Observable } from 'rxjs';
import { ApiError, Clock, nextMonthStart, plainDate } from '@app/core';
import { CallMeterService } from '@app/billing';
import { CostGroup } from './decorators';
import { ApiRequest } from './request-context';

/**
 * The monthly call meter. Every key-authenticated request that reaches an endpoint is
 * counted once (one SQL statement), before validation, so errors count too. Research and
 * other routes are refused at the cap; your-data routes are counted and never refused.
 */
@Injectable()
export class MeteringInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly meter: CallMeterService,
    private readonly clock: Clock,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const req = context.switchToHttp().getRequest<ApiRequest>();
    const auth = req.auth;
    if (!auth) return next.handle();

    const group = this.reflector.getAllAndOverride(CostGroup, [context.getHandler(), context.getClass()]) ?? 'other';
    const limit = auth.limits.api_calls_per_month === 'unlimited' ? null : auth.limits.api_calls_per_month;
    const now = this.clock.now();
    const result = await this.meter.consume(auth.accountId, limit, group !== 'your-data', now);
    if (!result.allowed) {
      throw new ApiError(
        'RATE_LIMITED',
        `Monthly API call limit of ${limit} reached. It resets on ${plainDate(nextMonthStart(now))}.`,
        { meta: { resets_at: plainDate(nextMonthStart(now)), limit } },
      );
    }
    req.meter = { used: result.used, limit };
    return next.handle();
  }
}
