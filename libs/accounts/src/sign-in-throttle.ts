import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@app/core';
import { FailureCounter, FailureVerdict, FailureWindow, RedisKeys } from '@app/redis';

/** Failed sign-ins allowed per email (lower-cased) within the window. */
const SIGN_IN_FAILURES_PER_EMAIL = 10;
/** Failed sign-ins allowed per client IP within the window. */
const SIGN_IN_FAILURES_PER_IP = 50;

type ThrottleVerdict = FailureVerdict;

/**
 * The sign-in failure throttle, in Redis so it holds across API instances: per email
 * (lower-cased, hashed in the key) at most 10 failures and per client IP at most 50
 * failures within SIGN_IN_WINDOW_SECONDS (15 minutes). Every attempt is reserved before the
 * password is checked (so concurrent guesses cannot overshoot the limit) and given back when
 * it succeeds, so what stays counted is the failures. A fixed window from the first failure
 * (the shared FailureWindow of @app/database).
 */
@Injectable()
export class SignInThrottle {
  constructor(
    private readonly failures: FailureWindow,
    private readonly keys: RedisKeys,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Counts one attempt for the email and the IP, unless either is already at its limit. */
  reserve(email: string, ip: string): Promise<ThrottleVerdict> {
    return this.failures.attempt(
      this.counters(email, ip),
      this.config.signInWindowSeconds * 1000,
      true,
    );
  }

  /** The attempt succeeded: it is not a failure, so it no longer counts. */
  async release(email: string, ip: string): Promise<void> {
    await this.failures.release(this.counters(email, ip).map((c) => c.key));
  }

  private counters(email: string, ip: string): FailureCounter[] {
    const digest = createHash('sha256').update(email.trim().toLowerCase(), 'utf8').digest('hex');
    return [
      { key: this.keys.of('signin', 'email', digest), limit: SIGN_IN_FAILURES_PER_EMAIL },
      { key: this.keys.of('signin', 'ip', ip || 'unknown'), limit: SIGN_IN_FAILURES_PER_IP },
    ];
  }
}
