import { Injectable, Logger } from '@nestjs/common';
import { Clock, PeriodicTask } from '@app/core';
import { IdempotencyKeysRepository } from '@app/database';

const BATCH = 1000;

/**
 * Deletes Idempotency-Keys whose 24 hours are over (docs/api.md "Idempotency-Key"): a repeat
 * after that runs as a new request anyway (the claim takes an expired row over), so the purge
 * only keeps the table small. Runs in the worker every 10 minutes (first round shortly after
 * start), in batches of 1,000.
 */
@Injectable()
export class IdempotencyPurgeService extends PeriodicTask<number> {
  protected readonly logger = new Logger(IdempotencyPurgeService.name);
  protected readonly taskName = 'Idempotency-Key purge';
  protected readonly intervalMs = 600_000;
  protected override readonly firstRunAfterMs = 5_000;

  constructor(
    private readonly keys: IdempotencyKeysRepository,
    private readonly clock: Clock,
  ) {
    super();
  }

  protected async run(): Promise<number> {
    const now = this.clock.now();
    let purged = 0;
    for (;;) {
      const n = await this.keys.purgeExpired(now, BATCH);
      purged += n;
      if (n < BATCH) break;
    }
    if (purged > 0) this.logger.log(`Idempotency-Key purge: removed ${purged} expired key(s)`);
    return purged;
  }
}
