import { ApiClient, FetchLike } from './api-client';
import { pollJob } from '@app/mcp-tools';

/** A fake clock + sleep pair: sleeping advances the clock, nothing waits for real. */
function fakeTime() {
  let now = 0;
  return {
    now: () => now,
    sleep: async (ms: number) => void (now += ms),
    advance: (ms: number) => void (now += ms),
    slept: () => now,
  };
}

type Answer = {
  status: number;
  body: unknown;
  /** simulated server-side wait, ms */ takesMs?: number;
};

/** A fetch answering GET /jobs/:id with the given sequence of envelopes (the last one repeats). */
function jobsApi(time: ReturnType<typeof fakeTime>, answers: Answer[]) {
  const calls: string[] = [];
  const fetchImpl: FetchLike = async (request) => {
    const url = request.url;
    calls.push(url);
    const a = answers[Math.min(calls.length - 1, answers.length - 1)];
    const wait = Number(new URL(url).searchParams.get('wait') ?? 0);
    // A long-poll that does not end early takes its whole wait.
    time.advance(a.takesMs ?? wait * 1000);
    return new Response(JSON.stringify(a.body), { status: a.status });
  };
  return {
    api: new ApiClient(
      { apiKey: 'k', baseUrl: 'http://api.test', requestTimeoutMs: 1000 },
      fetchImpl,
    ),
    calls,
  };
}

const job = (status: string, progress: number, takesMs?: number): Answer => ({
  status: 200,
  body: { success: true, data: { job_id: 'job_1', status, progress }, meta: {} },
  takesMs,
});

describe('pollJob: long-poll of GET /jobs/:id?wait= (run_site_audit)', () => {
  it('one long-poll call when the job ends within the wait: wait = the budget left, capped at 60', async () => {
    const time = fakeTime();
    const { api, calls } = jobsApi(time, [job('complete', 100, 20_000)]);
    const out = await pollJob(api, 'job_1', { intervalMs: 5000, maxWaitMs: 50_000, ...time });
    expect(out).toMatchObject({ finished: true, polls: 1, record: { status: 'complete' } });
    expect(calls).toEqual(['http://api.test/api/v1/jobs/job_1?wait=50']);
    expect(out.waitedMs).toBe(20_000);
  });

  it('a long budget is spent in 60 s waits, then the remainder; no pause between calls', async () => {
    const time = fakeTime();
    const seen: unknown[] = [];
    const { api, calls } = jobsApi(time, [
      job('queued', 0),
      job('running', 40),
      job('complete', 100, 3_000),
    ]);
    const out = await pollJob(api, 'job_1', {
      intervalMs: 5000,
      maxWaitMs: 150_000,
      ...time,
      onRecord: (r) => seen.push(r.status),
    });
    expect(out).toMatchObject({ finished: true, polls: 3 });
    expect(seen).toEqual(['queued', 'running', 'complete']);
    expect(calls.map((c) => new URL(c).searchParams.get('wait'))).toEqual(['60', '60', '30']);
    expect(time.slept()).toBe(123_000);
  });

  it('failed is terminal too', async () => {
    const time = fakeTime();
    const { api } = jobsApi(time, [job('failed', 30, 10)]);
    expect(
      await pollJob(api, 'job_1', { intervalMs: 1000, maxWaitMs: 60_000, ...time }),
    ).toMatchObject({ finished: true, polls: 1 });
  });

  it('never waits past maxWait, and makes no call for less than a second left', async () => {
    const time = fakeTime();
    const { api, calls } = jobsApi(time, [job('running', 10)]);
    const out = await pollJob(api, 'job_1', { intervalMs: 15_000, maxWaitMs: 50_500, ...time });
    expect(out).toMatchObject({ finished: false, polls: 1, record: { status: 'running' } });
    expect(calls).toEqual(['http://api.test/api/v1/jobs/job_1?wait=50']);
    expect(time.slept()).toBe(50_000);
  });

  it('longPollSeconds caps each wait (the local package keeps it under its HTTP timeout)', async () => {
    const time = fakeTime();
    const { api, calls } = jobsApi(time, [job('running', 10)]);
    await pollJob(api, 'job_1', {
      intervalMs: 1000,
      maxWaitMs: 50_000,
      longPollSeconds: 25,
      ...time,
    });
    expect(calls.map((c) => new URL(c).searchParams.get('wait'))).toEqual(['25', '25']);
  });

  it('maxWait 0 makes no call', async () => {
    const time = fakeTime();
    const { api, calls } = jobsApi(time, [job('running', 10)]);
    expect(await pollJob(api, 'job_1', { intervalMs: 1000, maxWaitMs: 0, ...time })).toMatchObject({
      polls: 0,
      record: null,
    });
    expect(calls).toHaveLength(0);
  });

  it('an early non-final answer (the API waiting limits) is followed by a pause of intervalMs', async () => {
    const time = fakeTime();
    const { api, calls } = jobsApi(time, [job('running', 10, 5), job('complete', 100, 1_000)]);
    const out = await pollJob(api, 'job_1', { intervalMs: 7_000, maxWaitMs: 50_000, ...time });
    expect(out).toMatchObject({ finished: true, polls: 2 });
    expect(calls.map((c) => new URL(c).searchParams.get('wait'))).toEqual(['50', '42']);
    expect(time.slept()).toBe(5 + 7_000 + 1_000);
  });

  it('a per-minute RATE_LIMITED is waited out (retry_after) when it fits the budget', async () => {
    const time = fakeTime();
    const limited: Answer = {
      status: 429,
      body: {
        success: false,
        error: { code: 'RATE_LIMITED', message: 'slow down' },
        meta: { retry_after: 7, limit: 1 },
      },
      takesMs: 0,
    };
    const { api } = jobsApi(time, [limited, job('complete', 100, 0)]);
    const out = await pollJob(api, 'job_1', { intervalMs: 1000, maxWaitMs: 60_000, ...time });
    expect(out).toMatchObject({ finished: true, polls: 2 });
    expect(time.slept()).toBe(7000);
  });

  it('any other error (or a retry_after beyond the budget) ends the wait with the failure', async () => {
    const time = fakeTime();
    const capped: Answer = {
      status: 429,
      body: {
        success: false,
        error: { code: 'RATE_LIMITED', message: 'cap' },
        meta: { resets_at: '2026-12-01' },
      },
      takesMs: 0,
    };
    const { api } = jobsApi(time, [job('running', 5), capped]);
    const out = await pollJob(api, 'job_1', { intervalMs: 1000, maxWaitMs: 120_000, ...time });
    expect(out).toMatchObject({
      finished: false,
      polls: 2,
      record: { status: 'running' },
      failure: { code: 'RATE_LIMITED', meta: { resets_at: '2026-12-01' } },
    });
  });

  it('stops when the client cancels', async () => {
    const time = fakeTime();
    const controller = new AbortController();
    const { api } = jobsApi(time, [job('running', 5)]);
    const out = await pollJob(api, 'job_1', {
      intervalMs: 1000,
      maxWaitMs: 600_000,
      ...time,
      signal: controller.signal,
      onRecord: () => controller.abort(),
    });
    expect(out).toMatchObject({ finished: false, polls: 1 });
  });
});
