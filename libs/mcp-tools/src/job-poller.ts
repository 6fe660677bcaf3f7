import { ApiFailure, ApiResult, ToolBackend, apiGet } from './backend';

/**
 * Default longest wait of run_site_audit when the client follows progress (sent a progress
 * token, so its timeout can be reset by the notifications): max_wait_seconds' maximum.
 */
export const PROGRESS_MAX_WAIT_MS = 600_000;

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** setTimeout as a promise that ends early (without throwing) when the signal aborts. */
export const sleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

interface PollOptions {
  /**
   * Pause before asking again when the API answered a long-poll early without a final state
   * (its waiting limits were reached, or it was shutting down). Not used otherwise.
   */
  intervalMs: number;
  maxWaitMs: number;
  /** Longest `wait` of one GET /jobs/:id?wait= call, in seconds (the API accepts 0-60). */
  longPollSeconds?: number;
  signal?: AbortSignal;
  sleep?: Sleep;
  now?: () => number;
  /** Called with every job record read (status, progress). */
  onRecord?: (record: Record<string, unknown>) => void;
}

export interface PollOutcome {
  /** complete or failed was reached. */
  finished: boolean;
  /** The latest job record read (null if none was read). */
  record: Record<string, unknown> | null;
  /** The poll error that ended the wait, if any. */
  failure: ApiFailure | null;
  polls: number;
  waitedMs: number;
}

const TERMINAL = new Set(['complete', 'failed']);
/** The API's largest `wait`. */
const MAX_LONG_POLL_SECONDS = 60;

/**
 * Waits for a job with long-polls: GET /jobs/:id?wait=N, N = the wait budget left (at most
 * 60 s), answered by the API as soon as the job is complete or failed. Every call is one
 * metered API call however long it waits, so an audit of 1-5 minutes costs 1-5 calls (one
 * when the budget is the default 50 s). Stops when the job is terminal, the budget is used up
 * (no call is made for less than a second left), the client cancels, or a call fails. A
 * per-minute RATE_LIMITED answer is waited out when retry_after fits in the budget; an early
 * non-final answer (the API's waiting limits) is followed by a pause of `intervalMs`.
 */
export async function pollJob(
  api: ToolBackend,
  jobId: string,
  options: PollOptions,
): Promise<PollOutcome> {
  return new JobPoll(api, jobId, options).run();
}

/** One wait of `pollJob`: its budget, the calls made and the latest record read. */
class JobPoll {
  private readonly now: () => number;
  private readonly pause: Sleep;
  /** The longest `wait` of one call, in seconds. */
  private readonly longest: number;
  private readonly started: number;
  private readonly deadline: number;
  private record: Record<string, unknown> | null = null;
  private polls = 0;

  constructor(
    private readonly api: ToolBackend,
    private readonly jobId: string,
    private readonly options: PollOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.pause = options.sleep ?? sleep;
    this.longest = Math.max(
      0,
      Math.min(MAX_LONG_POLL_SECONDS, options.longPollSeconds ?? MAX_LONG_POLL_SECONDS),
    );
    this.started = this.now();
    this.deadline = this.started + options.maxWaitMs;
  }

  async run(): Promise<PollOutcome> {
    const { options, deadline } = this;
    for (;;) {
      const remaining = deadline - this.now();
      if (remaining <= 0 || options.signal?.aborted) return this.outcome(false);
      const wait = Math.min(this.longest, Math.floor(remaining / 1000));
      if (this.polls > 0 && wait < 1) return this.outcome(false);
      const askedAt = this.now();
      const result: ApiResult = await apiGet(
        this.api,
        `/jobs/${encodeURIComponent(this.jobId)}`,
        { wait },
        options.signal,
      );
      this.polls += 1;
      if (!result.ok) {
        if (await this.waitedOutRateLimit(result)) continue;
        return this.outcome(false, result);
      }
      const record = (result.data ?? {}) as Record<string, unknown>;
      this.record = record;
      options.onRecord?.(record);
      if (TERMINAL.has(String(record.status))) return this.outcome(true);
      if (!(await this.pauseWhenEarly(askedAt, wait))) return this.outcome(false);
    }
  }

  /** A per-minute RATE_LIMITED whose retry_after fits in the budget is waited out (true). */
  private async waitedOutRateLimit(result: ApiFailure): Promise<boolean> {
    const retryAfter = Number(result.meta.retry_after);
    const perMinute =
      result.code === 'RATE_LIMITED' && Number.isFinite(retryAfter) && retryAfter > 0;
    if (perMinute && this.now() + retryAfter * 1000 <= this.deadline) {
      await this.pause(retryAfter * 1000, this.options.signal);
      return true;
    }
    return false;
  }

  /**
   * Answered well before its wait without a final state (the API's waiting limits): a
   * pause of `intervalMs` before the next call. False when the budget is used up.
   */
  private async pauseWhenEarly(askedAt: number, wait: number): Promise<boolean> {
    const early = this.now() - askedAt < wait * 1000 - 1000;
    if (!early) return true;
    const left = this.deadline - this.now();
    if (left <= 0) return false;
    await this.pause(Math.min(this.options.intervalMs, left), this.options.signal);
    return true;
  }

  private outcome(finished: boolean, failure: ApiFailure | null = null): PollOutcome {
    return {
      finished,
      record: this.record,
      failure,
      polls: this.polls,
      waitedMs: this.now() - this.started,
    };
  }
}
