import { BeforeApplicationShutdown, Logger, OnApplicationBootstrap } from '@nestjs/common';

/**
 * Work a process repeats on an interval (sweepers, maintenance): started when the
 * application has booted, stopped before it shuts down (waiting for a round in progress).
 * A failed round is logged and the next one runs as usual. Overlapping calls of
 * `runOnce()` (the timer and a test) share the round in progress.
 */
export abstract class PeriodicTask<T> implements OnApplicationBootstrap, BeforeApplicationShutdown {
  protected abstract readonly logger: Logger;
  /** Milliseconds between rounds. */
  protected abstract readonly intervalMs: number;
  /** Named in the log line of a failed round, e.g. 'Site-audit sweep'. */
  protected abstract readonly taskName: string;
  /** Delay before a first round at start-up; undefined = the first round after one interval. */
  protected readonly firstRunAfterMs: number | undefined = undefined;

  private timers: NodeJS.Timeout[] = [];
  private running: Promise<T> | null = null;

  /** One round of the work. */
  protected abstract run(): Promise<T>;

  onApplicationBootstrap(): void {
    if (this.firstRunAfterMs !== undefined) {
      this.timers.push(setTimeout(() => void this.tick(), this.firstRunAfterMs));
    }
    this.timers.push(setInterval(() => void this.tick(), this.intervalMs));
    for (const t of this.timers) t.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    this.timers = [];
    await this.running?.catch(() => undefined);
  }

  /** One round now (also called directly by tests). */
  runOnce(): Promise<T> {
    if (!this.running) {
      this.running = this.run().finally(() => {
        this.running = null;
      });
    }
    return this.running;
  }

  private async tick(): Promise<void> {
    try {
      await this.runOnce();
    } catch (err) {
      this.logger.error({ err }, `${this.taskName} failed`);
    }
  }
}
