import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, ApiError, AppConfig } from '@app/core';
import { FailureVerdict, FailureWindow } from './failure-window';
import { RedisKeys } from './redis-keys';

/** Failed admin authentications allowed per client IP within ADMIN_AUTH_WINDOW_SECONDS. */
export const ADMIN_AUTH_FAILURES_PER_IP = 20;

/**
 * The failed admin-token throttle, in Redis (shared by every instance): one fixed-window
 * counter per client IP. Every admin request makes one round trip after the token was
 * compared: a failure is counted unless the IP is already at the limit; at the limit every
 * request from the IP, right token or not, is refused until the window ends. Used by every
 * route behind the admin token: the API's admin API, /metrics and operator pages, and the
 * worker's /metrics port.
 */
@Injectable()
export class AdminAuthThrottle {
  constructor(
    private readonly failures: FailureWindow,
    private readonly keys: RedisKeys,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Checks the IP's counter and, when `failed`, counts one failure on it. */
  check(ip: string, failed: boolean): Promise<FailureVerdict> {
    return this.failures.attempt(
      [{ key: this.keyOf(ip), limit: ADMIN_AUTH_FAILURES_PER_IP }],
      this.config.adminAuthWindowSeconds * 1000,
      failed,
    );
  }

  /**
   * `check`, then 429 RATE_LIMITED (with Retry-After) when the IP is at the limit: the
   * answer of every route behind the admin token (admin API, /metrics, operator pages).
   */
  async checkOrThrow(ip: string, failed: boolean): Promise<void> {
    const verdict = await this.check(ip, failed);
    if (verdict.allowed) return;
    const wait = verdict.retryAfterSeconds;
    throw new ApiError('RATE_LIMITED', AdminAuthThrottle.refusal(wait), {
      meta: { retry_after: wait, limit: ADMIN_AUTH_FAILURES_PER_IP },
      headers: { 'Retry-After': wait },
    });
  }

  /** The message of the 429 answered at the limit. */
  static refusal(retryAfterSeconds: number): string {
    return `Too many failed admin authentications from this address (at most ${ADMIN_AUTH_FAILURES_PER_IP} per window). Retry in ${retryAfterSeconds} s.`;
  }

  /** The Redis key of an IP's failure counter. */
  keyOf(ip: string): string {
    return this.keys.of('admin-auth', 'ip', ip.slice(0, 64) || 'unknown');
  }
}
