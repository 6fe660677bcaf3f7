import { ApiFailure, ApiResult, ToolBackend, apiGet } from './backend';

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

export interface PollOptions {
  intervalMs: number;
  maxWaitMs: number;
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

/**
 * Bounded polling of GET /jobs/:id: one poll per interval until the job is complete or failed,
 * the wait budget is used up (a last poll happens at the deadline), the client cancels, or a poll
 * fails. A per-minute RATE_LIMITED answer is waited out when retry_after fits in the budget.
 * Every poll is one metered API call, so the number of polls is at most ceil(maxWait / interval).
 */
export async function pollJob(
  api: ToolBackend,
  jobId: string,
  options: PollOptions,
): Promise<PollOutcome> {
  const now = options.now ?? Date.now;
  const pause = options.sleep ?? sleep;
  const started = now();
  const deadline = started + options.maxWaitMs;
  let record: Record<string, unknown> | null = null;
  let polls = 0;
  let wait = options.intervalMs;
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
    await pause(Math.min(wait, remaining), options.signal);
    if (options.signal?.aborted) return outcome(false);
    const result: ApiResult = await apiGet(
      api,
      `/jobs/${encodeURIComponent(jobId)}`,
      undefined,
      options.signal,
    );
    polls += 1;
    if (!result.ok) {
      const retryAfter = Number(result.meta.retry_after);
      const perMinute =
        result.code === 'RATE_LIMITED' && Number.isFinite(retryAfter) && retryAfter > 0;
      if (perMinute && now() + retryAfter * 1000 <= deadline) {
        wait = retryAfter * 1000;
        continue;
      }
      return outcome(false, result);
    }
    wait = options.intervalMs;
    record = (result.data ?? {}) as Record<string, unknown>;
    options.onRecord?.(record);
    if (TERMINAL.has(String(record.status))) return outcome(true);
  }
}
