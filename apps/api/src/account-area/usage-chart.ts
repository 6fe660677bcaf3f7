import type { UsageDay } from '@app/billing';
import { BarChart, barChart, num } from '../pages/bar-chart';

export { axisTop } from '../pages/bar-chart';

/**
 * The console's usage chart: the last days' calls as stacked bars (research, your-data,
 * other), drawn by the server as inline SVG from these numbers (no chart script,
 * pages/bar-chart.ts), with the same figures as a table. The template places it.
 */
export interface UsageChart extends BarChart<'research' | 'your-data' | 'other'> {
  /** The figures, newest first (the table). */
  rows: UsageRow[];
  /**
   * The table as shown: the rows, newest first, each run of MIN_EMPTY_RUN or more days
   * without calls folded into one summary row ("12 days with no calls") whose days follow it,
   * hidden until it is opened (console-usage.js).
   */
  tableRows: UsageTableRow[];
  total: string;
}

interface UsageRow {
  date: string;
  research: string;
  yourData: string;
  other: string;
  calls: string;
}

export type UsageTableRow =
  | (UsageRow & { day: true; run: number | null })
  | { day: false; run: number; count: number; newest: string; oldest: string };

/** Runs of days without calls at least this long are folded into one row. */
export const MIN_EMPTY_RUN = 2;

/** The rows (newest first) with every long enough run of empty days behind a summary row. */
export function foldEmptyDays(
  rows: UsageRow[],
  callsOf: (row: UsageRow) => number,
): UsageTableRow[] {
  const out: UsageTableRow[] = [];
  let i = 0;
  let runs = 0;
  while (i < rows.length) {
    let j = i;
    while (j < rows.length && callsOf(rows[j]) === 0) j++;
    if (j - i >= MIN_EMPTY_RUN) {
      const run = ++runs;
      out.push({ day: false, run, count: j - i, newest: rows[i].date, oldest: rows[j - 1].date });
      for (const row of rows.slice(i, j)) out.push({ ...row, day: true, run });
      i = j;
    } else {
      out.push({ ...rows[i], day: true, run: null });
      i++;
    }
  }
  return out;
}

export function usageChart(days: UsageDay[]): UsageChart {
  const total = days.reduce((sum, d) => sum + d.calls, 0);
  const chart = barChart(
    days.map((d) => ({
      date: d.date,
      title: `${d.date}: ${num(d.calls)} calls (research ${num(d.research)}, your data ${num(d.your_data)}, other ${num(d.other)})`,
      parts: [
        ['research', d.research],
        ['your-data', d.your_data],
        ['other', d.other],
      ] as const,
    })),
    {
      summary:
        days.length > 0
          ? `API calls per day from ${days[0].date} to ${days[days.length - 1].date}: ${num(total)} in all.`
          : 'No days to show.',
    },
  );
  const newestFirst = days.slice().reverse();
  const rows = newestFirst.map((d) => ({
    date: d.date,
    research: num(d.research),
    yourData: num(d.your_data),
    other: num(d.other),
    calls: num(d.calls),
  }));
  const callsByDate = new Map(newestFirst.map((d) => [d.date, d.calls]));
  return {
    ...chart,
    rows,
    tableRows: foldEmptyDays(rows, (row) => callsByDate.get(row.date) ?? 0),
    total: num(total),
  };
}
