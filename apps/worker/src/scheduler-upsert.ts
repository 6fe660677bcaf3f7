import { Logger } from '@nestjs/common';

/** Waits between attempts to upsert the schedulers while Redis refuses writes. */
const SCHEDULE_RETRY_MS = [1_000, 2_000, 5_000, 10_000, 30_000];

/**
 * Upserts a processor's BullMQ job schedulers in the background: a worker always starts its
 * other queues, and the upsert is tried again (1 s, 2 s, 5 s, 10 s, then every 30 s) while
 * Redis refuses it (out of memory, a failover), until the worker stops. Shared by rank
 * collection and the Search Console sync.
 */
export class SchedulerUpsert {
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly logger: Logger,
    /** What is scheduled, for the log lines ("Rank collection"). */
    private readonly what: string,
    /** The upserts; it may look at `isStopped` between two of them. */
    private readonly upsert: () => Promise<void>,
    /** Called once the upserts succeeded (the log line of the intervals). */
    private readonly scheduled: () => void,
  ) {}

  get isStopped(): boolean {
    return this.stopped;
  }

  start(): void {
    this.attempt(0);
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private attempt(n: number): void {
    this.upsert().then(
      () => {
        if (!this.stopped) this.scheduled();
      },
      (err: unknown) => {
        if (this.stopped) return;
        const wait = SCHEDULE_RETRY_MS[Math.min(n, SCHEDULE_RETRY_MS.length - 1)];
        this.logger.warn({ err, retryInMs: wait }, `${this.what}: scheduling failed`);
        this.timer = setTimeout(() => this.attempt(n + 1), wait);
        this.timer.unref();
      },
    );
  }
}
