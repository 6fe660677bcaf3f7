import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { APP_CONFIG, AppConfig, Clock } from '@app/core';
import { ReservationsRepository } from '@app/billing';
import { PLANS } from '@app/plans';
import { ResearchCacheRepository } from './research-cache.repository';
import { staleReservationMs } from './research-deadlines';

const SWEEP_INTERVAL_MS = 60_000;
const BATCH = 200;

export interface SweepResult {
  refunded: number;
  purgedCacheRows: number;
}

/**
 * Crash recovery: a reservation still 'reserved' long after any request could have
 * finished (staleReservationMs) belongs to a process that died mid-request; it is refunded
 * (quota released / credit given back as a ledger row). Also drops cache rows no plan can
 * serve any more. Runs every minute in each API instance; safe to run concurrently.
 */
@Injectable()
export class ReservationSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('ReservationSweeper');
  private timer?: NodeJS.Timeout;
  private running = false;

  constructor(
    private readonly reservations: ReservationsRepository,
    private readonly cache: ResearchCacheRepository,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = true;
      this.sweep()
        .catch((err: unknown) => this.logger.error({ err }, 'Sweep failed'))
        .finally(() => (this.running = false));
    }, SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }

  async sweep(now: Date = this.clock.now()): Promise<SweepResult> {
    const cutoff = new Date(now.getTime() - staleReservationMs(this.config));
    let refunded = 0;
    for (;;) {
      const ids = await this.reservations.staleIds(cutoff, BATCH);
      for (const id of ids)
        if (await this.reservations.refund(id, 'stale reservation', now)) refunded++;
      if (ids.length < BATCH) break;
    }
    if (refunded > 0) this.logger.warn({ refunded }, 'Refunded stale research reservations');
    const longestBacklinksTtl = Math.max(
      ...Object.values(PLANS).map((p) => p.backlinksCacheTtlSeconds),
    );
    const purged =
      (await this.cache.purge('backlinks', new Date(now.getTime() - longestBacklinksTtl * 1000))) +
      (await this.cache.purge(
        'keyword_research',
        new Date(now.getTime() - this.config.keywordCacheTtlSeconds * 1000),
      ));
    return { refunded, purgedCacheRows: purged };
  }
}
