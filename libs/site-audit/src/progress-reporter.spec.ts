import { ProgressReporter, progressPercent } from './progress-reporter';

function reporter(interval = 1000) {
  let t = 0;
  const writes: number[] = [];
  let running = true;
  let gone = 0;
  const r = new ProgressReporter({
    write: async (p) => {
      writes.push(p);
      return running;
    },
    onGone: () => gone++,
    minIntervalMs: interval,
    monotonicNow: () => t,
  });
  return {
    r,
    writes,
    tick: (ms: number) => (t += ms),
    stop: () => (running = false),
    gone: () => gone,
  };
}

describe('site-audit progress', () => {
  it('is a 0-99 percentage of planned pages while running (100 only on completion)', () => {
    expect(progressPercent(0, 10)).toBe(0);
    expect(progressPercent(5, 10)).toBe(50);
    expect(progressPercent(10, 10)).toBe(99);
    expect(progressPercent(12, 10)).toBe(99);
    expect(progressPercent(3, 0)).toBe(0);
  });

  it('never decreases, even when the planned page count grows', async () => {
    const { r, writes, tick } = reporter(0);
    await r.report(5, 10); // 50
    tick(1);
    await r.report(6, 40); // 15: lower, not written
    tick(1);
    await r.report(30, 40); // 75
    expect(writes).toEqual([50, 75]);
  });

  it('writes at most once per interval', async () => {
    const { r, writes, tick } = reporter(1000);
    for (let i = 1; i <= 10; i++) {
      await r.report(i, 10);
      tick(300);
    }
    // writes at t=0, 1200, 2400 (every 4th call)
    expect(writes).toEqual([10, 50, 90]);
    expect(r.pagesDone).toBe(10);
  });

  it('reports once when the job is no longer running, then stops writing', async () => {
    const { r, writes, tick, stop, gone } = reporter(0);
    await r.report(1, 10);
    stop();
    tick(1);
    await r.report(2, 10);
    tick(1);
    await r.report(3, 10);
    expect(writes).toEqual([10, 20]);
    expect(gone()).toBe(1);
    expect(r.isGone).toBe(true);
    expect(r.pagesDone).toBe(3);
  });

  it('keeps the crawl going when a write fails', async () => {
    const errors: unknown[] = [];
    const r = new ProgressReporter({
      write: () => Promise.reject(new Error('db down')),
      onGone: () => undefined,
      onError: (e) => errors.push(e),
      minIntervalMs: 0,
    });
    await expect(r.report(1, 2)).resolves.toBeUndefined();
    expect(errors).toHaveLength(1);
  });
});
