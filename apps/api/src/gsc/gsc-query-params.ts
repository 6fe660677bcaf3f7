import {
  ApiError,
  GSC_DIMENSIONS,
  GSC_SORTS,
  GscDimension,
  GscSort,
  addDays,
  parsePlainDate,
  plainDate,
} from '@app/core';

/** Days before today that the period starts by default. */
const DEFAULT_PERIOD_DAYS = 28;

export interface GscQueryPlan {
  dim: GscDimension;
  sort: GscSort;
  dir: 'asc' | 'desc';
  from: string;
  to: string;
  limit: number;
}

function pick<T extends string>(value: unknown, allowed: readonly T[], fallback: T): T {
  if (typeof value !== 'string') return fallback;
  const wanted = value.trim().toLowerCase();
  return allowed.find((a) => a.toLowerCase() === wanted) ?? fallback;
}

/**
 * Resolves the parameters of GET /gsc/queries (after DTO validation): unrecognized dim and
 * sort fall back (query / clicks; the controller names it in meta.warnings); the period defaults to [today − 28 days, today]
 * by the injected clock; a reversed period is a validation error.
 */
export function resolveGscQuery(
  q: {
    dim?: unknown;
    sort?: unknown;
    dir?: 'asc' | 'desc';
    from?: string;
    to?: string;
    limit?: number;
  },
  now: Date,
): GscQueryPlan {
  const today = parsePlainDate(plainDate(now))!;
  const to = q.to ?? plainDate(today);
  // Default start: 28 days before today; when an explicit `to` lies before that, 28 days before `to`.
  const defaultFrom = plainDate(addDays(today, -DEFAULT_PERIOD_DAYS));
  const from =
    q.from ??
    (defaultFrom <= to
      ? defaultFrom
      : plainDate(addDays(parsePlainDate(to)!, -DEFAULT_PERIOD_DAYS)));
  if (from > to) {
    throw new ApiError('VALIDATION_ERROR', 'from must not be after to.', {
      details: [{ field: 'from', message: 'from must be on or before to' }],
    });
  }
  return {
    dim: pick(q.dim, GSC_DIMENSIONS, 'query'),
    sort: pick(q.sort, GSC_SORTS, 'clicks'),
    dir: q.dir ?? 'desc',
    from,
    to,
    limit: q.limit ?? 100,
  };
}

/** How a period is read from the rollups: whole calendar months plus up to two partial edges. */
interface PeriodSplit {
  /** First and last month start (YYYY-MM-01) read from the monthly rollups, or null. */
  months: [string, string] | null;
  /** Day ranges read from the daily rollups (0-2 ranges, inclusive). */
  days: Array<[string, string]>;
}

const monthStartOf = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
const nextMonthOf = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));

/**
 * Splits [from, to] (inclusive YYYY-MM-DD) into the calendar months it covers completely and
 * the days before / after them. Without a complete month, the whole period is days.
 */
export function splitPeriod(from: string, to: string): PeriodSplit {
  const f = parsePlainDate(from)!;
  const t = parsePlainDate(to)!;
  const firstFull = f.getUTCDate() === 1 ? f : nextMonthOf(f);
  const afterTo = addDays(t, 1);
  const lastFullEnd = afterTo.getUTCDate() === 1 ? afterTo : monthStartOf(afterTo); // exclusive
  if (firstFull >= lastFullEnd) return { months: null, days: [[from, to]] };
  const days: Array<[string, string]> = [];
  if (f < firstFull) days.push([from, plainDate(addDays(firstFull, -1))]);
  if (lastFullEnd <= t) days.push([plainDate(lastFullEnd), to]);
  const lastMonth = monthStartOf(addDays(lastFullEnd, -1));
  return { months: [plainDate(firstFull), plainDate(lastMonth)], days };
}

/** How a period is read from the three rollup tables (dims other than date). */
export interface RollupPlan {
  /** First and last month start read from gsc_monthly_rollups, or null. */
  months: [string, string] | null;
  /** Block starts (`week`, days 1/8/15/22/29) read from gsc_weekly_rollups. */
  weeks: string[];
  /** Single days read from gsc_daily_rollups. */
  days: string[];
}

/** First day of the 7-day block of the month holding `d`: the 1st, 8th, 15th, 22nd or 29th. */
export function weekBlockStart(d: Date): Date {
  const day = d.getUTCDate();
  return new Date(
    Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1 + Math.min(Math.floor((day - 1) / 7), 4) * 7),
  );
}

/** Day after the last day of the block starting at `start` (7 days later, or the next month). */
export function weekBlockEnd(start: Date): Date {
  const next = addDays(start, 7);
  const nextMonth = nextMonthOf(start);
  return next < nextMonth ? next : nextMonth;
}

/**
 * Splits [from, to] (inclusive YYYY-MM-DD) into whole calendar months (monthly rollups),
 * then each remaining edge into the whole month blocks it contains (weekly rollups) and the
 * days left over (daily rollups). Every day of the period is read exactly once.
 */
export function planRollups(from: string, to: string): RollupPlan {
  const split = splitPeriod(from, to);
  const weeks: string[] = [];
  const days: string[] = [];
  for (const [a, b] of split.days) {
    const last = parsePlainDate(b)!;
    let d = parsePlainDate(a)!;
    while (d <= last) {
      const end = weekBlockEnd(d);
      if (weekBlockStart(d).getTime() === d.getTime() && addDays(end, -1) <= last) {
        weeks.push(plainDate(d));
        d = end;
      } else {
        days.push(plainDate(d));
        d = addDays(d, 1);
      }
    }
  }
  return { months: split.months, weeks, days };
}
