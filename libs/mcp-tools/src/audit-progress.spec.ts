import { AuditProgress } from './audit-progress';

type Sent = { method: string; params: { progress: number; total: number; message: string } };
/** The part of the SDK's request context AuditProgress takes. */
type ProgressExtra = ConstructorParameters<typeof AuditProgress>[0];

function extra(token: string | number | undefined) {
  const controller = new AbortController();
  const sent: Sent[] = [];
  const extra: ProgressExtra = {
    _meta: token === undefined ? undefined : { progressToken: token },
    signal: controller.signal,
    sendNotification: (n) => {
      sent.push(n as Sent);
      return Promise.resolve();
    },
  };
  return { controller, sent, extra };
}

describe('AuditProgress (run_site_audit progress: at once with the job id, then a heartbeat)', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('sends the first notification at once, its message naming the job id and how to find it again', async () => {
    const e = extra('tok');
    const p = new AuditProgress(e.extra, 'job_abc', 10_000);
    p.start({ job_id: 'job_abc', status: 'queued' });
    await p.sent();
    expect(e.sent).toHaveLength(1);
    expect(e.sent[0].method).toBe('notifications/progress');
    expect(e.sent[0].params).toMatchObject({ progressToken: 'tok', progress: 0, total: 100 });
    expect(e.sent[0].params.message).toContain('job_abc');
    expect(e.sent[0].params.message).toMatch(/get_job/);
    expect(e.sent[0].params.message).toMatch(/list_jobs/);
    p.stop();
  });

  it('beats every interval while waiting, each value strictly above the last, below 100 until complete', async () => {
    const e = extra(7);
    const p = new AuditProgress(e.extra, 'job_abc', 10_000);
    p.start({ job_id: 'job_abc', status: 'queued' });
    jest.advanceTimersByTime(9_999);
    await p.sent();
    expect(e.sent).toHaveLength(1);
    jest.advanceTimersByTime(1);
    await p.sent();
    expect(e.sent).toHaveLength(2);
    p.onRecord({ status: 'running', progress: 40 });
    jest.advanceTimersByTime(20_000);
    p.onRecord({ status: 'running', progress: 99 });
    jest.advanceTimersByTime(300_000);
    p.onRecord({ status: 'complete', progress: 100 });
    await p.sent();
    const values = e.sent.map((n) => n.params.progress);
    for (let i = 1; i < values.length; i++) expect(values[i]).toBeGreaterThan(values[i - 1]);
    expect(values).toContain(40);
    expect(values.slice(0, -1).every((v) => v < 100)).toBe(true);
    expect(values[values.length - 1]).toBe(100);
    expect(e.sent[e.sent.length - 1].params.message).toContain('complete');
    p.stop();
  });

  it('sends nothing after stop() or once the call is cancelled', async () => {
    const e = extra('tok');
    const p = new AuditProgress(e.extra, 'job_abc', 1_000);
    p.start({ job_id: 'job_abc', status: 'queued' });
    e.controller.abort();
    jest.advanceTimersByTime(10_000);
    p.onRecord({ status: 'running', progress: 50 });
    await p.sent();
    expect(e.sent).toHaveLength(1);
    const q = new AuditProgress(extra('t').extra, 'job_x', 1_000);
    q.start({ status: 'queued' });
    q.stop();
    expect(jest.getTimerCount()).toBe(0);
  });

  it('without a progress token: nothing is sent and no timer runs', async () => {
    const e = extra(undefined);
    const p = new AuditProgress(e.extra, 'job_abc', 1_000);
    expect(p.wanted).toBe(false);
    p.start({ status: 'queued' });
    p.onRecord({ status: 'running', progress: 10 });
    expect(jest.getTimerCount()).toBe(0);
    await p.sent();
    expect(e.sent).toHaveLength(0);
  });
});
