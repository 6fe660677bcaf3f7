/** Progress while running stays below 100; only completion reports 100. */
const MAX_RUNNING_PROGRESS = 99;

/** Percent of planned pages done, 0-99 while running. */
export function progressPercent(pagesDone: number, pagesPlanned: number): number {
  if (!(pagesPlanned > 0) || !(pagesDone > 0)) return 0;
  const pct = Math.floor((Math.min(pagesDone, pagesPlanned) * 100) / pagesPlanned);
  return Math.max(0, Math.min(MAX_RUNNING_PROGRESS, pct));
}

interface ProgressReporterOptions {
  /** Writes the progress; resolves false when the job is no longer running. */
  write: (percent: number) => Promise<boolean>;
  /** Called once when a write finds the job no longer running. */
  onGone: () => void;
  /** Called when a write fails (the crawl goes on; progress is advisory). */
  onError?: (err: unknown) => void;
  /** Least time between two writes (monotonic clock), e.g. 1000 ms. */
  minIntervalMs: number;
  /** Monotonic milliseconds (tests pass their own). */
  monotonicNow?: () => number;
}

/**
 * Turns the crawler's onProgress calls into throttled, never-decreasing progress writes: at
 * most one write per interval, and only when the percentage went up.
 */
export class ProgressReporter {
  private written = 0;
  private lastWriteAt = Number.NEGATIVE_INFINITY;
  private gone = false;
  /** The most pages the crawl reported done (kept on the budget if the crawl fails). */
  pagesDone = 0;

  constructor(private readonly options: ProgressReporterOptions) {}

  get isGone(): boolean {
    return this.gone;
  }

  get lastWritten(): number {
    return this.written;
  }

  async report(pagesDone: number, pagesPlanned: number): Promise<void> {
    if (pagesDone > this.pagesDone) this.pagesDone = pagesDone;
    if (this.gone) return;
    const pct = progressPercent(pagesDone, pagesPlanned);
    if (pct <= this.written) return;
    const now = (this.options.monotonicNow ?? (() => performance.now()))();
    if (now - this.lastWriteAt < this.options.minIntervalMs) return;
    this.written = pct;
    this.lastWriteAt = now;
    try {
      if (!(await this.options.write(pct))) {
        this.gone = true;
        this.options.onGone();
      }
    } catch (err) {
      this.options.onError?.(err);
    }
  }
}
