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
  rows: Array<{ date: string; research: string; yourData: string; other: string; calls: string }>;
  total: string;
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
  return {
    ...chart,
    rows: days
      .slice()
      .reverse()
      .map((d) => ({
        date: d.date,
        research: num(d.research),
        yourData: num(d.your_data),
        other: num(d.other),
        calls: num(d.calls),
      })),
    total: num(total),
  };
}
