/** One answer seen by the topology run's traffic. */
export interface Answer {
  kind:
    | 'usage'
    | 'your-data'
    | 'research'
    | 'audit-start'
    | 'job-poll'
    | 'rank'
    | 'rank-other'
    | 'rank-write';
  start: number;
  end: number;
  status: number;
  code?: string;
  /** meta.charged of a research answer. */
  charged?: string;
  /** The Retry-After header of the answer, if any. */
  retryAfter?: string | null;
  /** The balancer dropped the request after an API accepted it (it may have been counted). */
  indeterminate?: boolean;
  body?: Record<string, unknown>;
}

/** Calls `url` through fetch and records the answer; never throws. */
export async function record(
  answers: Answer[],
  kind: Answer['kind'],
  url: string,
  init: RequestInit,
  timeoutMs = 30_000,
): Promise<Answer> {
  const start = Date.now();
  let answer: Answer;
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    const text = await res.text();
    let body: Record<string, unknown> | undefined;
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      body = undefined;
    }
    const error = body?.error as { code?: string } | undefined;
    const meta = body?.meta as { charged?: string } | undefined;
    answer = {
      kind,
      start,
      end: Date.now(),
      status: res.status,
      code: error?.code,
      charged: meta?.charged,
      retryAfter: res.headers.get('retry-after'),
      indeterminate: res.headers.get('x-topology-indeterminate') === '1',
      body,
    };
  } catch (err) {
    answer = { kind, start, end: Date.now(), status: 0, code: (err as Error).name };
  }
  answers.push(answer);
  return answer;
}

/** `n` loops running `step` until `stop()`; each loop pauses `pauseMs` between steps. */
/** Every traffic loop started and not yet stopped (a failed test must not leave one running). */
const started = new Set<{ stop: () => Promise<void> }>();

/** Stops every loop still running; for afterAll, so a failed run ends (no open handle). */
export async function stopLoops(): Promise<void> {
  await Promise.all([...started].map((l) => l.stop()));
}

export function loops(
  n: number,
  step: (i: number) => Promise<unknown>,
  pauseMs: number,
): { stop: () => Promise<void> } {
  let running = true;
  const run = async (i: number) => {
    while (running) {
      await step(i);
      await new Promise((r) => setTimeout(r, pauseMs));
    }
  };
  const all = Array.from({ length: n }, (_, i) => run(i));
  const handle = {
    stop: async () => {
      running = false;
      started.delete(handle);
      await Promise.all(all);
    },
  };
  started.add(handle);
  return handle;
}

/** One fault of the run and what the traffic saw around it. */
export interface FaultReport {
  fault: string;
  at: number;
  /** Time from the fault to the end of the last 5xx answer it caused (0 when none). */
  wholeAfterMs: number;
  served: number;
  refused: Record<string, number>;
  failed: Record<string, number>;
}

/** Summarizes the answers that started within [from, to) for one fault. */
export function summarize(fault: string, at: number, to: number, answers: Answer[]): FaultReport {
  const seen = answers.filter((a) => a.start >= at && a.start < to);
  const refused: Record<string, number> = {};
  const failed: Record<string, number> = {};
  let last = at;
  for (const a of seen) {
    const label = `${a.status} ${a.code ?? ''}`.trim();
    if (a.status >= 500 || a.status === 0) {
      failed[label] = (failed[label] ?? 0) + 1;
      last = Math.max(last, a.end);
    } else if (a.status >= 400) {
      refused[label] = (refused[label] ?? 0) + 1;
    }
  }
  return {
    fault,
    at,
    wholeAfterMs: last - at,
    served: seen.filter((a) => a.status >= 200 && a.status < 300).length,
    refused,
    failed,
  };
}
