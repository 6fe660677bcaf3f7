import { ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard, ThrottlerLimitDetail } from '@nestjs/throttler';
import { ApiError } from '@app/core';
import { ApiRequest } from './request-context';

/**
 * Per-minute limit per account and endpoint (Pro 20, Agency 60, overridable). Built on
 * @nestjs/throttler with a Redis storage; the limit comes from the caller's plan.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  protected override async shouldSkip(context: ExecutionContext): Promise<boolean> {
    return !context.switchToHttp().getRequest<ApiRequest>().auth;
  }

  protected override async getTracker(req: Record<string, unknown>): Promise<string> {
    return String((req as unknown as ApiRequest).auth!.accountId);
  }

  protected override generateKey(context: ExecutionContext, tracker: string, name: string): string {
    return `${name}:${tracker}:${context.getClass().name}.${context.getHandler().name}`;
  }

  protected override async throwThrottlingException(
    context: ExecutionContext,
    detail: ThrottlerLimitDetail,
  ): Promise<void> {
    const retryAfter = detail.timeToBlockExpire;
    throw new ApiError(
      'RATE_LIMITED',
      `Too many requests to this endpoint: at most ${detail.limit} per minute. Retry in ${retryAfter} s.`,
      {
        meta: { retry_after: retryAfter, limit: detail.limit },
        headers: {
          'Retry-After': retryAfter,
          'X-RateLimit-Limit': detail.limit,
          'X-RateLimit-Remaining': 0,
          'X-RateLimit-Reset': retryAfter,
        },
      },
    );
  }
}

/** The per-minute limit of the caller. */
export function perMinuteLimit(context: ExecutionContext): number {
  return context.switchToHttp().getRequest<ApiRequest>().auth?.limits.requests_per_minute ?? 0;
}
