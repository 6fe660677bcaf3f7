import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, ApiError, AppConfig, Clock } from '@app/core';
import { SeoDataProvider } from '@app/providers';
import { ResearchCacheRepository, ResearchKind } from './research-cache.repository';
import { Reservation, ReservationsRepository } from '@app/billing';
import { InFlightLockService } from './in-flight-lock.service';
import { lockTtlMs } from './research-timing';

export type Charge = 'none' | 'quota' | 'credit';

export interface ResearchJob<T> {
  accountId: number;
  kind: ResearchKind;
  /** Identifies the request within the account: cache key and in-flight lock. */
  requestKey: string;
  ttlSeconds: number;
  /** Takes the quota unit or credit (one atomic statement) or throws 402 / 429. */
  reserve: () => Promise<Reservation>;
  fetch: (provider: SeoDataProvider) => Promise<T>;
}

export interface ResearchOutcome<T> {
  data: T;
  cached: boolean;
  provider: string;
  charged: Charge;
}

/**
 * The one path of every research request:
 * cache hit → free. Else in-flight lock (409 ALREADY_RUNNING when held) → cache again (the
 * previous holder may just have filled it) → reserve quota/credit → provider → store in
 * cache → commit. Any failure after the reservation refunds it before the error goes out.
 */
@Injectable()
export class ResearchRunner {
  private readonly logger = new Logger('Research');

  constructor(
    private readonly provider: SeoDataProvider,
    private readonly cache: ResearchCacheRepository,
    private readonly reservations: ReservationsRepository,
    private readonly locks: InFlightLockService,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async run<T>(job: ResearchJob<T>): Promise<ResearchOutcome<T>> {
    const hit = await this.fromCache<T>(job);
    if (hit) return hit;

    const lock = await this.locks.acquire(
      this.locks.keyOf(job.kind, job.accountId, job.requestKey),
      lockTtlMs(this.config),
    );
    if (!lock) {
      throw new ApiError(
        'ALREADY_RUNNING',
        'The same request is already being fetched for this account. Retry shortly; it will be served from cache. Nothing was charged.',
      );
    }
    try {
      const again = await this.fromCache<T>(job);
      if (again) return again;

      const reservation = await job.reserve();
      let data: T;
      try {
        data = await job.fetch(this.provider);
        await this.cache.put(
          job.accountId,
          job.kind,
          job.requestKey,
          this.provider.name,
          data,
          this.clock.now(),
        );
      } catch (e) {
        const why =
          e instanceof ApiError && e.code === 'UPSTREAM_ERROR'
            ? 'upstream error'
            : 'request failed';
        await this.reservations
          .refund(reservation.id, why, this.clock.now())
          .catch((err: unknown) =>
            this.logger.error(
              { err, reservation: reservation.id },
              'Refund failed; the sweeper will retry it',
            ),
          );
        throw e;
      }
      const committed = await this.reservations
        .commit(reservation.id, this.clock.now())
        .catch((err: unknown) => {
          this.logger.error({ err, reservation: reservation.id }, 'Commit failed');
          return false;
        });
      if (!committed)
        this.logger.warn(
          { reservation: reservation.id },
          'Reservation was no longer open at commit',
        );
      return { data, cached: false, provider: this.provider.name, charged: reservation.kind };
    } finally {
      await this.locks
        .release(lock)
        .catch((err: unknown) => this.logger.warn({ err }, 'Lock release failed'));
    }
  }

  private async fromCache<T>(job: ResearchJob<T>): Promise<ResearchOutcome<T> | null> {
    if (job.ttlSeconds <= 0) return null;
    const freshAfter = new Date(this.clock.now().getTime() - job.ttlSeconds * 1000);
    const hit = await this.cache.get<T>(job.accountId, job.kind, job.requestKey, freshAfter);
    return hit
      ? { data: hit.payload, cached: true, provider: hit.provider, charged: 'none' }
      : null;
  }
}
