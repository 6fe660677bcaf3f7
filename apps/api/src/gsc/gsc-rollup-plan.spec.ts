import fc from 'fast-check';
import { addDays, parsePlainDate, plainDate } from '@app/core';
import { planRollups, weekBlockEnd, weekBlockStart } from './gsc-query-params';

/** The days a plan reads, each as many times as it is read. */
function daysRead(from: string, to: string): string[] {
  const plan = planRollups(from, to);
  const out: string[] = [...plan.days];
  for (const w of plan.weeks) {
    const start = parsePlainDate(w)!;
    for (let d = start; d < weekBlockEnd(start); d = addDays(d, 1)) out.push(plainDate(d));
  }
  if (plan.months) {
    const [m1, m2] = plan.months;
    for (let d = parsePlainDate(m1)!; plainDate(d).slice(0, 7) <= m2.slice(0, 7); d = addDays(d, 1))
      out.push(plainDate(d));
  }
  return out.sort();
}

describe('planRollups (monthly + 7-day month blocks + daily rollups)', () => {
  it('blocks start on the 1st, 8th, 15th, 22nd, 29th and never cross a month', () => {
    expect(plainDate(weekBlockStart(parsePlainDate('2026-11-07')!))).toBe('2026-11-01');
    expect(plainDate(weekBlockStart(parsePlainDate('2026-11-08')!))).toBe('2026-11-08');
    expect(plainDate(weekBlockStart(parsePlainDate('2026-11-28')!))).toBe('2026-11-22');
    expect(plainDate(weekBlockStart(parsePlainDate('2026-10-31')!))).toBe('2026-10-29');
    expect(plainDate(weekBlockEnd(parsePlainDate('2026-10-29')!))).toBe('2026-11-01');
    expect(plainDate(weekBlockEnd(parsePlainDate('2026-02-22')!))).toBe('2026-03-01');
    expect(plainDate(weekBlockEnd(parsePlainDate('2028-02-29')!))).toBe('2028-03-01');
  });

  it('the default 28-day window reads whole blocks and only the edge days', () => {
    expect(planRollups('2026-10-26', '2026-11-23')).toEqual({
      months: null,
      weeks: ['2026-10-29', '2026-11-01', '2026-11-08', '2026-11-15'],
      days: ['2026-10-26', '2026-10-27', '2026-10-28', '2026-11-22', '2026-11-23'],
    });
  });

  it('whole months from the monthly rollups, the edges from blocks and days', () => {
    expect(planRollups('2026-03-18', '2026-06-15')).toEqual({
      months: ['2026-04-01', '2026-05-01'],
      weeks: ['2026-03-22', '2026-03-29', '2026-06-01', '2026-06-08'],
      days: ['2026-03-18', '2026-03-19', '2026-03-20', '2026-03-21', '2026-06-15'],
    });
    expect(planRollups('2026-02-01', '2026-02-28')).toEqual({
      months: ['2026-02-01', '2026-02-01'],
      weeks: [],
      days: [],
    });
  });

  it('reads every day of any period exactly once (property)', () => {
    const base = Date.UTC(2023, 0, 1);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2000 }), fc.integer({ min: 0, max: 500 }), (a, len) => {
        const from = plainDate(new Date(base + a * 86_400_000));
        const to = plainDate(new Date(base + (a + len) * 86_400_000));
        const expected: string[] = [];
        for (let d = parsePlainDate(from)!; plainDate(d) <= to; d = addDays(d, 1))
          expected.push(plainDate(d));
        expect(daysRead(from, to)).toEqual(expected);
      }),
      { seed: 16, numRuns: 400 },
    );
  });
});
