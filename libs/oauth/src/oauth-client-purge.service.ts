import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig, Clock, PeriodicTask } from '@app/core';
import { OAuthClientsRepository } from './oauth-clients.repository';

const BATCH = 1000;

/**
 * Removes OAuth clients that never completed an authorization within
 * OAUTH_UNUSED_CLIENT_TTL_SECONDS (a day) of their registration or first metadata-document
 * fetch: registrations nobody used are what a registration flood leaves behind. Runs in the
 * worker, hourly (first round shortly after start), in batches of 1,000; a client with a grant
 * that was exchanged for tokens is kept, revoked or not. A purged metadata-document client is
 * fetched again on its next use.
 */
@Injectable()
export class OAuthClientPurgeService extends PeriodicTask<number> {
  protected readonly logger = new Logger(OAuthClientPurgeService.name);
  protected readonly taskName = 'OAuth client purge';
  protected readonly intervalMs = 3_600_000;
  protected override readonly firstRunAfterMs = 5_000;

  constructor(
    private readonly clients: OAuthClientsRepository,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super();
  }

  protected async run(): Promise<number> {
    const before = new Date(
      this.clock.now().getTime() - this.config.oauthRegistrations.unusedTtlSeconds * 1000,
    );
    let purged = 0;
    for (;;) {
      const n = await this.clients.deleteUnused(before, BATCH);
      purged += n;
      if (n < BATCH) break;
    }
    if (purged > 0) this.logger.log(`OAuth client purge: removed ${purged} unused client(s)`);
    return purged;
  }
}
