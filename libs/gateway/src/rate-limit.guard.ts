import { ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard } from '@nestjs/throttler';
import type { Response } from 'express';
import { ApiError } from '@app/core';
import { ApiRequest } from './request-context';

/**
 * Per-minute limit per account and endpoint (Pro 20, Agency 60, overridable), on
 * @nestjs/throttler's module, options and storage contract with a Redis storage.
 *
 * We configure exactly one throttler and take its limit from the caller's plan, so
 * `canActivate` takes a direct path: one storage call and three headers. The base class's
 * generic loop (several named throttlers, per-route decorator overrides, six metadata
 * lookups and several awaits per request) cost about 8% of the hot path's throughput
 * (docs/performance.md). @SkipThrottle/@Throttle decorators are therefore not supported.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const auth = http.getRequest<ApiRequest>().auth;
    if (!auth) return true; // public route: nothing to limit per account

    const throttler = this.throttlers[0];
    const ttl = throttler.ttl as number;
    const limit = auth.limits.requests_per_minute;
    const key = this.generateKey(context, String(auth.accountId), throttler.name ?? 'default');
    const record = await this.storageService.increment(
      key,
      ttl,
      limit,
      ttl,
      throttler.name ?? 'default',
    );
    const res = http.getResponse<Response>();
    res.setHeader('X-RateLimit-Limit', limit);
    res.setHeader('X-RateLimit-Remaining', Math.max(0, limit - record.totalHits));
    res.setHeader('X-RateLimit-Reset', record.timeToExpire);
    if (record.isBlocked) {
      const retryAfter = record.timeToBlockExpire;
      res.setHeader('X-RateLimit-Remaining', 0);
      res.setHeader('Retry-After', retryAfter);
      throw new ApiError(
        'RATE_LIMITED',
        `Too many requests to this endpoint: at most ${limit} per minute. Retry in ${retryAfter} s.`,
        { meta: { retry_after: retryAfter, limit } },
      );
    }
    return true;
  }

  /** `rl:<prefix>` is added by the storage: `default:<account>:<Controller.handler>`. */
  protected override generateKey(context: ExecutionContext, tracker: string, name: string): string {
    return `${name}:${tracker}:${context.getClass().name}.${context.getHandler().name}`;
  }
}

/** The per-minute limit of the caller (the module's configured limit resolver). */
export function perMinuteLimit(context: ExecutionContext): number {
  return context.switchToHttp().getRequest<ApiRequest>().auth?.limits.requests_per_minute ?? 0;
}
