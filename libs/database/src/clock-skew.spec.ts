import { Logger } from '@nestjs/common';
import { ManualClock, metricsRegistry } from '@app/core';
import { ClockSkewMonitor, DatabaseClockRepository } from './clock-skew';

describe('ClockSkewMonitor: the process clock against PostgreSQL’s', () => {
  beforeAll(() => Logger.overrideLogger(false));
  const db = new Date('2026-11-30T23:59:00Z');
  const monitor = (clock: ManualClock, now: () => Promise<Date>) =>
    new ClockSkewMonitor({ now } as unknown as DatabaseClockRepository, clock);
  const gauge = async () =>
    (await metricsRegistry.getSingleMetric('process_clock_skew_seconds')!.get()).values[0].value;

  it('unknown before the first check', () => {
    expect(monitor(new ManualClock(db), async () => db).status()).toEqual({
      status: 'unknown',
      skew_ms: null,
      max_skew_ms: 5000,
    });
  });

  it('ok up to 5 s either way, skewed beyond; the gauge is signed seconds', async () => {
    const clock = new ManualClock(new Date(db.getTime() + 5000));
    const m = monitor(clock, async () => db);
    expect(await m.runOnce()).toEqual({ status: 'ok', skew_ms: 5000, max_skew_ms: 5000 });
    clock.set(new Date(db.getTime() + 4 * 86_400_000));
    expect((await m.runOnce()).status).toBe('skewed');
    expect(await gauge()).toBe(4 * 86_400);
    clock.set(new Date(db.getTime() - 5001));
    expect(await m.runOnce()).toEqual({ status: 'skewed', skew_ms: -5001, max_skew_ms: 5000 });
    expect(await gauge()).toBe(-5.001);
  });

  it('unknown again while PostgreSQL does not answer', async () => {
    let fail = false;
    const m = monitor(new ManualClock(db), async () => {
      if (fail) throw new Error('connection refused');
      return db;
    });
    expect((await m.runOnce()).status).toBe('ok');
    fail = true;
    await expect(m.runOnce()).rejects.toThrow('connection refused');
    expect(m.status()).toEqual({ status: 'unknown', skew_ms: null, max_skew_ms: 5000 });
  });
});
