import { BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig, metrics } from '@app/core';
import {
  JobEventsMark,
  JobEventsSubscriber,
  JobRecord,
  JobLifecycleService,
} from '@app/site-audit';

/** The longest `wait` a client may ask for, in seconds. */
export const MAX_WAIT_SECONDS = 60;

/** How long shutdown waits for the waiters' last reads before answering with what they have. */
const SHUTDOWN_READ_MS = 2_000;

const isTerminal = (record: JobRecord): boolean =>
  record.status === 'complete' || record.status === 'failed';

/** Registers a callback for the client going away (the response closing before it is sent). */
type OnClientGone = (callback: () => void) => void;

/**
 * One waiting request. It answers once, with: the row when it turns terminal (on the job's
 * event, a resync or a coarse re-check), the row read at its deadline, the row read at
 * shutdown, or (client gone) whatever it has. Reads of one waiter never overlap.
 */
class Waiter {
  private done = false;
  private reading: Promise<void> | null = null;
  private readAgain = false;
  private timer: NodeJS.Timeout | undefined;
  private unwatch: () => void = () => undefined;

  constructor(
    private readonly jobId: string,
    readonly accountId: number,
    private latest: JobRecord | null,
    private readonly read: () => Promise<JobRecord | null>,
    private readonly resolve: (record: JobRecord | null) => void,
    private readonly release: (waiter: Waiter) => void,
  ) {}

  start(events: JobEventsSubscriber, mark: JobEventsMark, waitMs: number): void {
    this.unwatch = events.watch(this.jobId, () => void this.check(false));
    this.timer = setTimeout(() => void this.check(true), waitMs);
    // The job may have ended between the first read and the watch: read once more when its
    // event arrived meanwhile or the subscription was not live throughout.
    if (events.missedSince(this.jobId, mark)) void this.check(false);
  }

  /** Re-reads the row; answers when it is terminal, or in any case when `final`. */
  check(final: boolean): Promise<void> {
    if (this.done) return Promise.resolve();
    if (this.reading) {
      if (final) return this.reading.then(() => this.check(true));
      this.readAgain = true;
      return this.reading;
    }
    this.reading = (async () => {
      try {
        const record = await this.read();
        this.latest = record;
        if (record === null || isTerminal(record) || final) this.finish(record);
      } catch {
        // A failed read (database blip) keeps the last record; the deadline answers it.
        if (final) this.finish(this.latest);
      } finally {
        this.reading = null;
      }
      if (this.readAgain && !this.done) {
        this.readAgain = false;
        await this.check(false);
      }
    })();
    return this.reading;
  }

  /** Answers at once with the last record read (client gone, or shutdown's read too slow). */
  finishNow(): void {
    this.finish(this.latest);
  }

  private finish(record: JobRecord | null): void {
    if (this.done) return;
    this.done = true;
    clearTimeout(this.timer);
    this.unwatch();
    this.release(this);
    this.resolve(record);
  }
}

/**
 * GET /jobs/:job_id?wait=N: answers when the job is terminal or after N seconds with the
 * current state. No busy loop: terminal transitions publish the job id on Redis
 * (JobEventsPublisher, after the commit) and this process's one subscriber wakes the waiters
 * of that job, which re-read the row (PostgreSQL stays the truth). Bounds: at most
 * JOBS_WAIT_MAX_PER_ACCOUNT waiting requests per account and JOBS_WAIT_MAX_TOTAL in total on
 * this process; a request beyond a bound (or during shutdown) is answered at once with the
 * current state, as with wait=0. While the subscription is down, waiters re-read every
 * JOBS_WAIT_RECHECK_MS. On shutdown every waiter is answered with a fresh read.
 */
@Injectable()
export class JobLongPollService implements BeforeApplicationShutdown {
  private readonly waiters = new Set<Waiter>();
  private readonly perAccount = new Map<number, number>();
  private recheck: NodeJS.Timeout | undefined;
  private closing = false;

  constructor(
    private readonly jobs: JobLifecycleService,
    private readonly events: JobEventsSubscriber,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Waiting requests on this process (tests, metrics). */
  get waiting(): number {
    return this.waiters.size;
  }

  /**
   * The job record of the caller's job, after waiting up to `waitSeconds` for a terminal
   * state; null when the job is not the account's (answered at once, nothing waits).
   */
  async record(
    jobId: string,
    accountId: number,
    waitSeconds: number,
    onClientGone?: OnClientGone,
  ): Promise<JobRecord | null> {
    const mark = this.events.mark(); // before the first read (see Waiter.start)
    const first = await this.jobs.jobRecord(jobId, accountId);
    if (!first || waitSeconds <= 0 || isTerminal(first) || !this.admit(accountId)) return first;
    return new Promise<JobRecord | null>((resolve) => {
      const waiter = new Waiter(
        jobId,
        accountId,
        first,
        () => this.jobs.jobRecord(jobId, accountId),
        resolve,
        (w) => this.release(w),
      );
      this.waiters.add(waiter);
      this.startRecheck();
      onClientGone?.(() => waiter.finishNow());
      waiter.start(this.events, mark, Math.min(waitSeconds, MAX_WAIT_SECONDS) * 1000);
    });
  }

  /** Answers every waiter with a fresh read (bounded), before the HTTP server closes. */
  async beforeApplicationShutdown(): Promise<void> {
    this.closing = true;
    const all = [...this.waiters];
    if (all.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const slow = new Promise<void>((r) => (timer = setTimeout(r, SHUTDOWN_READ_MS)));
    await Promise.race([Promise.all(all.map((w) => w.check(true))), slow]);
    clearTimeout(timer);
    for (const w of all) w.finishNow();
    this.stopRecheck();
  }

  private admit(accountId: number): boolean {
    const { maxPerAccount, maxTotal } = this.config.jobsWait;
    const mine = this.perAccount.get(accountId) ?? 0;
    if (this.closing || this.waiters.size >= maxTotal || mine >= maxPerAccount) return false;
    this.perAccount.set(accountId, mine + 1);
    metrics.longPollWaiting.inc();
    return true;
  }

  private release(waiter: Waiter): void {
    if (!this.waiters.delete(waiter)) return;
    metrics.longPollWaiting.dec();
    const left = (this.perAccount.get(waiter.accountId) ?? 1) - 1;
    if (left > 0) this.perAccount.set(waiter.accountId, left);
    else this.perAccount.delete(waiter.accountId);
    if (this.waiters.size === 0) this.stopRecheck();
  }

  /** While the Redis subscription is down, waiters re-read every JOBS_WAIT_RECHECK_MS. */
  private startRecheck(): void {
    if (this.recheck) return;
    this.recheck = setInterval(() => {
      if (this.events.live) return;
      for (const w of [...this.waiters]) void w.check(false);
    }, this.config.jobsWait.recheckMs);
    this.recheck.unref();
  }

  private stopRecheck(): void {
    clearInterval(this.recheck);
    this.recheck = undefined;
  }
}
