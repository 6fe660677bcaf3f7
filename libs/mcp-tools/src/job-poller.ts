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
  const now = options.now ?? Date.now;
  const pause = options.sleep ?? sleep;
  const longest = Math.max(
    0,
    Math.min(MAX_LONG_POLL_SECONDS, options.longPollSeconds ?? MAX_LONG_POLL_SECONDS),
  );
  const started = now();
  const deadline = started + options.maxWaitMs;
  let record: Record<string, unknown> | null = null;
  let polls = 0;
  const outcome = (finished: boolean, failure: ApiFailure | null = null): PollOutcome => ({
    finished,
    record,
    failure,
    polls,
    waitedMs: now() - started,
  });

  for (;;) {
    const remaining = deadline - now();
    if (remaining <= 0 || options.signal?.aborted) return outcome(false);
    const wait = Math.min(longest, Math.floor(remaining / 1000));
    if (polls > 0 && wait < 1) return outcome(false);
    const askedAt = now();
    const result: ApiResult = await apiGet(
      api,
      `/jobs/${encodeURIComponent(jobId)}`,
      { wait },
      options.signal,
    );
    polls += 1;
    if (!result.ok) {
      const retryAfter = Number(result.meta.retry_after);
      const perMinute =
        result.code === 'RATE_LIMITED' && Number.isFinite(retryAfter) && retryAfter > 0;
      if (perMinute && now() + retryAfter * 1000 <= deadline) {
        await pause(retryAfter * 1000, options.signal);
        continue;
      }
      return outcome(false, result);
    }
    record = (result.data ?? {}) as Record<string, unknown>;
    options.onRecord?.(record);
    if (TERMINAL.has(String(record.status))) return outcome(true);
    // Answered well before its wait without a final state: the API's waiting limits.
    const early = now() - askedAt < wait * 1000 - 1000;
    if (early) {
      const left = deadline - now();
      if (left <= 0) return outcome(false);
      await pause(Math.min(options.intervalMs, left), options.signal);
    }
  }
}
