import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, ApiError, AppConfig, Clock, metrics } from '@app/core';
import { SeoDataProvider } from '@app/providers';
import { ResearchCacheRepository, ResearchKind } from './research-cache.repository';
import { Reservation, ReservationsRepository } from '@app/billing';
import { InFlightLockService } from './in-flight-lock.service';
import { lockTtlMs } from './research-deadlines';

/** Tries of the charge's commit, and the pauses between them (about 0.6 s in all). */
const COMMIT_ATTEMPTS = 3;
const COMMIT_RETRY_DELAYS_MS = [150, 450];

export type Charge = 'none' | 'quota' | 'credit';

interface ResearchJob<T> {
  accountId: number;
  kind: ResearchKind;
  /** Identifies the request within the account: cache key and in-flight lock. */
  requestKey: string;
  ttlSeconds: number;
  /** Takes the quota unit or credit (one atomic statement) or throws 402 / 429. */
  reserve: () => Promise<Reservation>;
  fetch: (provider: SeoDataProvider) => Promise<T>;
}

interface ResearchOutcome<T> {
  data: T;
  cached: boolean;
  provider: string;
  charged: Charge;
}

/**
 * The one path of every research request:
 * cache hit → free. Else in-flight lock (409 ALREADY_RUNNING when held) → cache again (the
 * previous holder may just have filled it) → reserve quota/credit → provider → commit
 * (retried briefly) → store in cache → answer. Any failure after the reservation refunds
 * it before the error goes out; a charge that cannot be committed is refunded and answered
 * 500 SERVER_ERROR, never delivered.
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
    metrics.researchCache.inc({ endpoint: job.kind, result: hit ? 'hit' : 'miss' });
    if (hit) return hit;

    const lock = await this.acquireLock(job);
    try {
      const again = await this.fromCache<T>(job);
      if (again) return again;

      const reservation = await this.reserve(job);
      const data = await this.fetchCharged(job, reservation);
      await this.cache
        .put(job.accountId, job.kind, job.requestKey, this.provider.name, data, this.clock.now())
        .catch((err: unknown) =>
          // Paid for and committed: deliver it; the next identical request fetches again.
          this.logger.warn({ err, reservation: reservation.id }, 'Research cache write failed'),
        );
      return { data, cached: false, provider: this.provider.name, charged: reservation.kind };
    } finally {
      await this.locks
        .release(lock)
        .catch((err: unknown) => this.logger.warn({ err }, 'Lock release failed'));
    }
  }

  /** The request's in-flight lock, or 409 ALREADY_RUNNING when another request holds it. */
  private async acquireLock<T>(job: ResearchJob<T>) {
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
    return lock;
  }

  /** The job's reservation, counted in the credit metrics (refused or reserved). */
  private async reserve<T>(job: ResearchJob<T>): Promise<Reservation> {
    const reservation = await job.reserve().catch((e: unknown) => {
      if (e instanceof ApiError && (e.code === 'PAYMENT_REQUIRED' || e.code === 'QUOTA_EXCEEDED'))
        metrics.creditOperations.inc({
          kind: e.code === 'PAYMENT_REQUIRED' ? 'credit' : 'quota',
          operation: 'refused',
        });
      throw e;
    });
    metrics.creditOperations.inc({ kind: reservation.kind, operation: 'reserve' });
    return reservation;
  }

  /**
   * The provider's data once its charge is committed; a failed fetch or commit refunds the
   * reservation and throws (a failed commit as 500 SERVER_ERROR).
   */
  private async fetchCharged<T>(job: ResearchJob<T>, reservation: Reservation): Promise<T> {
    let data: T;
    try {
      data = await job.fetch(this.provider);
    } catch (e) {
      await this.refund(reservation, e);
      throw e;
    }
    // The answer goes out only once its charge is committed; until then nothing is
    // cached either, so a failed commit cannot turn into free data on the retry.
    const commitError = await this.commit(reservation);
    if (commitError !== null) {
      // `cause`: when PostgreSQL is unreachable the exception filter counts it as such.
      const failure = new ApiError(
        'SERVER_ERROR',
        'Internal error: the charge could not be recorded, so nothing was charged. It is safe to retry.',
        { headers: { 'Retry-After': 2 }, cause: commitError },
      );
      await this.refund(reservation, failure);
      throw failure;
    }
    return data;
  }

  /**
   * reserved → committed, retried on errors (COMMIT_ATTEMPTS within about a second). Null
   * when committed; also null when the reservation was no longer open (a sweeper refunded
   * it after a very long request: the customer keeps the answer, logged as a warning);
   * the last error when every attempt failed.
   */
  private async commit(reservation: Reservation): Promise<unknown> {
    for (let attempt = 1; ; attempt++) {
      try {
        const committed = await this.reservations.commit(reservation.id, this.clock.now());
        if (committed)
          metrics.creditOperations.inc({ kind: reservation.kind, operation: 'commit' });
        if (!committed)
          this.logger.warn(
            { reservation: reservation.id },
            'Reservation was no longer open at commit (refunded by the sweeper); answer delivered uncharged',
          );
        return null;
      } catch (err) {
        if (attempt >= COMMIT_ATTEMPTS) {
          this.logger.error(
            { reservation: reservation.id, attempts: attempt, reason: (err as Error)?.message },
            'Charge commit failed; answering SERVER_ERROR and refunding the reservation',
          );
          return err ?? new Error('commit failed');
        }
        await new Promise((r) => setTimeout(r, COMMIT_RETRY_DELAYS_MS[attempt - 1]));
      }
    }
  }

  /**
   * Gives the reservation back after a failure. When the refund itself fails (PostgreSQL
   * unreachable) the reservation stays 'reserved' and the sweeper refunds it later.
   */
  private async refund(reservation: Reservation, cause: unknown): Promise<void> {
    const why =
      cause instanceof ApiError && cause.code === 'UPSTREAM_ERROR'
        ? 'upstream error'
        : cause instanceof ApiError && cause.code === 'SERVER_ERROR'
          ? 'charge not recorded'
          : 'request failed';
    metrics.creditOperations.inc({ kind: reservation.kind, operation: 'refund' });
    await this.reservations
      .refund(reservation.id, why, this.clock.now())
      .catch((err: unknown) =>
        this.logger.warn(
          { reservation: reservation.id, reason: (err as Error)?.message },
          'Refund failed; the reservation stays open and the sweeper will refund it',
        ),
      );
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
