import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@app/core';
import { FailureWindow, RedisKeys } from '@app/redis';

const WINDOW_MS = 60_000;

/**
 * The sync's own limit on Search Console requests (docs/gsc-sync.md, "Quotas"): one
 * fixed-window counter per site and one per Google user (the connection's e-mail) in Redis,
 * shared by every worker, GSC_QPM_PER_SITE / GSC_QPM_PER_USER requests per 60-second
 * window. A window starts at its first request, so any 60 seconds hold at most twice the
 * setting: the default 600 keeps under Google's 1,200 per minute whatever the alignment.
 * At the limit the request waits for the window to end (only that property's run waits).
 */
@Injectable()
export class GscRequestQuota {
  constructor(
    private readonly windows: FailureWindow,
    private readonly keys: RedisKeys,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Waits until both the site and the user have room in their window, then counts one request. */
  async take(siteUrl: string, googleEmail: string): Promise<void> {
    const counters = this.countersOf(siteUrl, googleEmail);
    for (;;) {
      const verdict = await this.windows.attempt(counters, WINDOW_MS, true);
      if (verdict.allowed) return;
      await new Promise((r) => setTimeout(r, verdict.retryAfterSeconds * 1000));
    }
  }

  /** The site's and the user's counters (Redis keys under REDIS_PREFIX) and their limits. */
  countersOf(siteUrl: string, googleEmail: string): Array<{ key: string; limit: number }> {
    const { qpmPerSite, qpmPerUser } = this.config.gscSync;
    return [
      { key: this.keys.of('gsc-qpm', 'site', digest(siteUrl)), limit: qpmPerSite },
      {
        key: this.keys.of('gsc-qpm', 'user', digest(googleEmail.toLowerCase())),
        limit: qpmPerUser,
      },
    ];
  }
}

const digest = (s: string) => createHash('sha256').update(s).digest('base64url').slice(0, 22);
