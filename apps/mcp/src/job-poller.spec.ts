import { ApiClient, FetchLike } from './api-client';
import { pollJob } from '@app/mcp-tools';

/** A fake clock + sleep pair: sleeping advances the clock, nothing waits for real. */
function fakeTime() {
  let now = 0;
  return { now: () => now, sleep: async (ms: number) => void (now += ms), slept: () => now };
}

/** A fetch answering GET /jobs/:id with the given sequence of envelopes (the last one repeats). */
function jobsApi(answers: Array<{ status: number; body: unknown }>) {
  const calls: string[] = [];
  const fetchImpl = (async (url: URL) => {
    calls.push(String(url));
    const a = answers[Math.min(calls.length - 1, answers.length - 1)];
    return new Response(JSON.stringify(a.body), { status: a.status });
  }) as unknown as FetchLike;
  return {
    api: new ApiClient(
      { apiKey: 'k', baseUrl: 'http://api.test', requestTimeoutMs: 1000 },
      fetchImpl,
    ),
    calls,
  };
}

const job = (status: string, progress: number) => ({
  status: 200,
  body: { success: true, data: { job_id: 'job_1', status, progress }, meta: {} },
});

describe('pollJob: bounded polling of GET /jobs/:id (run_site_audit)', () => {
  it('polls once per interval until complete and returns the final record', async () => {
    const time = fakeTime();
    const { api, calls } = jobsApi([job('queued', 0), job('running', 40), job('complete', 100)]);
    const seen: unknown[] = [];
    const out = await pollJob(api, 'job_1', {
      intervalMs: 1000,
      maxWaitMs: 60_000,
      ...time,
      onRecord: (r) => seen.push(r.status),
    });
    expect(out).toMatchObject({
      finished: true,
      polls: 3,
      failure: null,
      record: { status: 'complete' },
    });
    expect(seen).toEqual(['queued', 'running', 'complete']);
    expect(calls).toEqual(Array(3).fill('http://api.test/api/v1/jobs/job_1'));
    expect(time.slept()).toBe(3000);
  });

  it('failed is terminal too', async () => {
    const time = fakeTime();
    const { api } = jobsApi([job('failed', 30)]);
    expect(
      await pollJob(api, 'job_1', { intervalMs: 1000, maxWaitMs: 60_000, ...time }),
    ).toMatchObject({
      finished: true,
      polls: 1,
    });
  });

  it('never waits past maxWait: at most ceil(maxWait / interval) polls, the last at the deadline', async () => {
    const time = fakeTime();
    const { api } = jobsApi([job('running', 10)]);
    const out = await pollJob(api, 'job_1', { intervalMs: 15_000, maxWaitMs: 50_000, ...time });
    expect(out).toMatchObject({ finished: false, polls: 4, record: { status: 'running' } });
    expect(time.slept()).toBe(50_000);
  });

  it('maxWait 0 makes no call', async () => {
    const time = fakeTime();
    const { api, calls } = jobsApi([job('running', 10)]);
    expect(await pollJob(api, 'job_1', { intervalMs: 1000, maxWaitMs: 0, ...time })).toMatchObject({
      polls: 0,
      record: null,
    });
    expect(calls).toHaveLength(0);
  });

  it('a per-minute RATE_LIMITED is waited out (retry_after) when it fits the budget', async () => {
    const time = fakeTime();
    const limited = {
      status: 429,
      body: {
        success: false,
        error: { code: 'RATE_LIMITED', message: 'slow down' },
        meta: { retry_after: 7, limit: 1 },
      },
    };
    const { api } = jobsApi([limited, job('complete', 100)]);
    const out = await pollJob(api, 'job_1', { intervalMs: 1000, maxWaitMs: 60_000, ...time });
    expect(out).toMatchObject({ finished: true, polls: 2 });
    expect(time.slept()).toBe(1000 + 7000);
  });

  it('any other error (or a retry_after beyond the budget) ends the wait with the failure', async () => {
    const time = fakeTime();
    const capped = {
      status: 429,
      body: {
        success: false,
        error: { code: 'RATE_LIMITED', message: 'cap' },
        meta: { resets_at: '2026-12-01' },
      },
    };
    const { api } = jobsApi([job('running', 5), capped]);
    const out = await pollJob(api, 'job_1', { intervalMs: 1000, maxWaitMs: 60_000, ...time });
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
    const { api } = jobsApi([job('running', 5)]);
    const out = await pollJob(api, 'job_1', {
      intervalMs: 1000,
      maxWaitMs: 60_000,
      ...time,
      signal: controller.signal,
      onRecord: () => controller.abort(),
    });
    expect(out).toMatchObject({ finished: false, polls: 1 });
  });
});
