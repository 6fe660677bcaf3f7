import { addDays, parsePlainDate, plainDate } from '@app/core';
import { monthStart } from '@app/database';

/**
 * The day plan of the Search Console sync (docs/gsc-sync.md), pure: which days a run pulls,
 * in which order. A property's plan is three numbers: `backfill_from` (F, the oldest day),
 * `backfill_days_total` (T) and `backfill_days_done` (D). The anchor A = F + T − 1 is the
 * newest day the plan covers; the days A, A−1, … A−D+1 are synced, A−D … F remain (the
 * backfill goes newest day first). The incremental pull moves the anchor up to the newest
 * final day N, so T and D grow by the same number of days.
 */
export interface BackfillState {
  backfillFrom: string | null;
  daysTotal: number;
  daysDone: number;
}

export interface PlanOptions {
  /** GSC_BACKFILL_MONTHS. */
  backfillMonths: number;
  /** GSC_FINAL_DAY_LAG_DAYS. */
  finalDayLagDays: number;
  /** GSC_RETENTION_MONTHS: the backfill never reaches into a month the retention drops. */
  retentionMonths: number;
  /** Most backfill days one claim pulls (then the property waits its turn again). */
  backfillDaysPerRun: number;
}

/** The days before the newest final day that every incremental pull takes again. */
export const REPULL_DAYS = 3;

export interface RunPlan {
  /** The state with the backfill planned (a new property's first run plans it). */
  state: BackfillState & { backfillFrom: string };
  /** The newest final day at this run. */
  newest: string;
  /**
   * The incremental days, newest first: N and the 3 days before it, plus any day between the
   * anchor and N (a property that waited longer than a day). Empty while a backfill runs and
   * no new final day has come.
   */
  incremental: string[];
  /** How far the anchor moves once every incremental day is stored (N − A, or 0). */
  anchorAdvance: number;
  /** Backfill days of this run, newest first (at most backfillDaysPerRun). */
  backfill: string[];
}

const DAY_MS = 86_400_000;
const day = (s: string) => parsePlainDate(s)!;
const shift = (s: string, days: number) => plainDate(addDays(day(s), days));
const daysBetween = (from: string, to: string) =>
  Math.round((day(to).getTime() - day(from).getTime()) / DAY_MS);

/** Today in Pacific time (Search Console's days), as YYYY-MM-DD. */
export function pacificToday(now: Date): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: 'America/Los_Angeles',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}

/** The newest day whose final data Search Console has (typically 2-3 days back, §3.4). */
export function newestFinalDay(now: Date, lagDays: number): string {
  return shift(pacificToday(now), -lagDays);
}

/**
 * The oldest day a backfill reaching back from `newest` pulls: `months` months back (Search
 * Console keeps 16), never before the re-pull window, never in a month retention drops.
 */
export function backfillFrom(newest: string, now: Date, o: PlanOptions): string {
  const [y, m, d] = newest.split('-').map(Number);
  const back = new Date(Date.UTC(y, m - 1 - o.backfillMonths, d));
  // 31 March − 1 month lands on 3 March (JS rolls over): take the month's last day instead.
  if (back.getUTCDate() !== d) back.setUTCDate(0);
  let from = shift(plainDate(back), 1);
  const repull = shift(newest, -REPULL_DAYS);
  if (from > repull) from = repull;
  const kept = monthStart(plainDate(now), -o.retentionMonths);
  return from < kept ? kept : from;
}

/** What one run of a property pulls (see RunPlan). */
export function planRun(current: BackfillState, now: Date, o: PlanOptions): RunPlan {
  const newest = newestFinalDay(now, o.finalDayLagDays);
  const state =
    current.backfillFrom === null
      ? (() => {
          const from = backfillFrom(newest, now, o);
          return { backfillFrom: from, daysTotal: daysBetween(from, newest) + 1, daysDone: 0 };
        })()
      : { ...current, backfillFrom: current.backfillFrom };
  const anchor = shift(state.backfillFrom, state.daysTotal - 1);
  const backfillDone = state.daysDone >= state.daysTotal;
  const incremental: string[] = [];
  let anchorAdvance = 0;
  if (backfillDone || newest > anchor) {
    anchorAdvance = Math.max(0, daysBetween(anchor, newest));
    const oldest = [shift(newest, -REPULL_DAYS), shift(anchor, 1)].sort()[0];
    for (let d = newest; d >= oldest && d >= state.backfillFrom; d = shift(d, -1)) {
      incremental.push(d);
    }
  }
  const backfill: string[] = [];
  for (let i = state.daysDone; i < state.daysTotal && backfill.length < o.backfillDaysPerRun; i++) {
    backfill.push(shift(anchor, -i));
  }
  return { state, newest, incremental, anchorAdvance, backfill };
}
