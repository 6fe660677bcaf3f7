import { backfillFrom, newestFinalDay, pacificToday, planRun, PlanOptions } from './gsc-sync.plan';

const opts: PlanOptions = {
  backfillMonths: 16,
  finalDayLagDays: 2,
  retentionMonths: 16,
  backfillDaysPerRun: 31,
};
const fresh = { backfillFrom: null, daysTotal: 0, daysDone: 0 };

describe('Search Console sync plan', () => {
  it('days are Pacific time: the newest final day is PT today minus the lag', () => {
    // 2026-06-15 05:00 UTC is still 2026-06-14 in California (PDT, UTC-7).
    expect(pacificToday(new Date('2026-06-15T05:00:00Z'))).toBe('2026-06-14');
    expect(pacificToday(new Date('2026-06-15T08:00:00Z'))).toBe('2026-06-15');
    expect(newestFinalDay(new Date('2026-06-15T08:00:00Z'), 2)).toBe('2026-06-13');
    expect(newestFinalDay(new Date('2026-01-10T12:00:00Z'), 3)).toBe('2026-01-07');
  });

  it('a new property backfills 16 months, newest day first, 31 days a run', () => {
    const now = new Date('2026-06-15T08:00:00Z');
    const plan = planRun(fresh, now, opts);
    expect(plan.newest).toBe('2026-06-13');
    expect(plan.state).toEqual({ backfillFrom: '2025-02-14', daysTotal: 485, daysDone: 0 });
    // The backfill covers the newest day: no separate incremental pull.
    expect(plan.incremental).toEqual([]);
    expect(plan.backfill).toHaveLength(31);
    expect(plan.backfill.slice(0, 3)).toEqual(['2026-06-13', '2026-06-12', '2026-06-11']);
    expect(plan.backfill[30]).toBe('2026-05-14');
  });

  it('goes on where it stopped, and ends at the oldest day', () => {
    const now = new Date('2026-06-15T08:00:00Z');
    const state = { backfillFrom: '2025-02-14', daysTotal: 485, daysDone: 470 };
    const plan = planRun(state, now, opts);
    expect(plan.incremental).toEqual([]);
    expect(plan.backfill).toHaveLength(15);
    expect(plan.backfill[0]).toBe('2025-02-28');
    expect(plan.backfill[14]).toBe('2025-02-14');
  });

  it('once backfilled: the newest final day and a re-pull of the 3 days before it', () => {
    const state = { backfillFrom: '2025-02-14', daysTotal: 485, daysDone: 485 };
    const same = planRun(state, new Date('2026-06-15T20:00:00Z'), opts);
    expect(same.incremental).toEqual(['2026-06-13', '2026-06-12', '2026-06-11', '2026-06-10']);
    expect(same.anchorAdvance).toBe(0);
    expect(same.backfill).toEqual([]);
    // A day later the anchor moves by one.
    const next = planRun(state, new Date('2026-06-16T20:00:00Z'), opts);
    expect(next.incremental).toEqual(['2026-06-14', '2026-06-13', '2026-06-12', '2026-06-11']);
    expect(next.anchorAdvance).toBe(1);
  });

  it('a property that waited a week pulls every day since its anchor', () => {
    const state = { backfillFrom: '2025-02-14', daysTotal: 485, daysDone: 485 };
    const plan = planRun(state, new Date('2026-06-22T20:00:00Z'), opts);
    expect(plan.newest).toBe('2026-06-20');
    expect(plan.anchorAdvance).toBe(7);
    expect(plan.incremental).toHaveLength(7);
    expect(plan.incremental[0]).toBe('2026-06-20');
    expect(plan.incremental[6]).toBe('2026-06-14');
  });

  it('during a backfill, a new final day is pulled (with the re-pull) before the older days', () => {
    const state = { backfillFrom: '2025-02-14', daysTotal: 485, daysDone: 62 };
    const plan = planRun(state, new Date('2026-06-16T08:00:00Z'), opts);
    expect(plan.incremental).toEqual(['2026-06-14', '2026-06-13', '2026-06-12', '2026-06-11']);
    expect(plan.anchorAdvance).toBe(1);
    expect(plan.backfill[0]).toBe('2026-04-12'); // anchor 2026-06-13 − 62 days
  });

  it('the backfill never reaches a month retention drops, nor starts after the re-pull window', () => {
    // 1 June: the newest final day is in May; 16 months back would be 2025-01-31, but
    // retention keeps months from 2025-02.
    expect(backfillFrom('2026-05-30', new Date('2026-06-01T20:00:00Z'), opts)).toBe('2025-02-01');
    // GSC_BACKFILL_MONTHS=0: only the newest day and the 3 before it.
    const none = { ...opts, backfillMonths: 0 };
    const plan = planRun(fresh, new Date('2026-06-15T08:00:00Z'), none);
    expect(plan.state).toEqual({ backfillFrom: '2026-06-10', daysTotal: 4, daysDone: 0 });
    // 31 March minus one month: the last day of February.
    expect(
      backfillFrom('2026-03-31', new Date('2026-04-02T20:00:00Z'), { ...opts, backfillMonths: 1 }),
    ).toBe('2026-03-01');
  });
});
