import type { UsageDay } from '@app/billing';

/**
 * The console's usage chart: the last days' calls as stacked bars (research, your-data,
 * other), drawn by the server as inline SVG from these numbers (no chart script), with the
 * same figures as a table. Everything here is geometry and text; the template places it.
 */
export interface UsageChart {
  width: number;
  height: number;
  /** Where the plot starts (the tick labels are left of it) and the date labels' baseline. */
  plotLeft: number;
  plotRight: number;
  labelY: number;
  tickX: number;
  /** A sentence for assistive technology (the SVG's title). */
  summary: string;
  /** Horizontal grid lines with their labels, bottom to top. */
  ticks: Array<{ y: number; label: string }>;
  bars: Array<{
    x: number;
    width: number;
    /** The bar's tooltip: date and figures. */
    title: string;
    segments: Array<{ kind: 'research' | 'your-data' | 'other'; y: number; height: number }>;
  }>;
  /** Date labels under some bars. */
  labels: Array<{ x: number; text: string }>;
  /** The figures, newest first (the table). */
  rows: Array<{ date: string; research: string; yourData: string; other: string; calls: string }>;
  total: string;
}

const WIDTH = 640;
const HEIGHT = 220;
const LEFT = 44; // room for the tick labels
const BOTTOM = 24; // room for the date labels
const TOP = 8;
const RIGHT = 20; // room for the last date label

const num = (n: number): string => n.toLocaleString('en-US');

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const shortDate = (date: string): string =>
  `${MONTHS[Number(date.slice(5, 7)) - 1]} ${Number(date.slice(8, 10))}`;

/** The smallest of 1, 2, 5 × 10^k (at least 4) that is at least `max`: the axis's top. */
export function axisTop(max: number): number {
  if (max <= 4) return 4;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 5, 10]) if (step * power >= max) return step * power;
  return 10 * power;
}

/** One tenth of a pixel is precise enough for the SVG. */
const round = (n: number): number => Math.round(n * 10) / 10;

/** The chart's scale: the axis's top, each day's slot and bar width, calls → pixels. */
interface Geometry {
  top: number;
  slot: number;
  barWidth: number;
  scale: (n: number) => number;
}

function geometry(days: UsageDay[]): Geometry {
  const top = axisTop(Math.max(0, ...days.map((d) => d.calls)));
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const slot = (WIDTH - LEFT - RIGHT) / Math.max(days.length, 1);
  return {
    top,
    slot,
    barWidth: Math.max(2, slot * 0.7),
    scale: (n: number): number => (n / top) * plotHeight,
  };
}

export function usageChart(days: UsageDay[]): UsageChart {
  const g = geometry(days);
  const total = days.reduce((sum, d) => sum + d.calls, 0);
  return {
    width: WIDTH,
    height: HEIGHT,
    plotLeft: LEFT,
    plotRight: WIDTH - RIGHT,
    labelY: HEIGHT - 6,
    tickX: LEFT - 6,
    summary:
      days.length > 0
        ? `API calls per day from ${days[0].date} to ${days[days.length - 1].date}: ${num(total)} in all.`
        : 'No days to show.',
    ticks: [0, g.top / 2, g.top].map((v) => ({
      y: round(HEIGHT - BOTTOM - g.scale(v)),
      label: num(v),
    })),
    bars: days.map((d, i) => bar(d, i, g)),
    labels: dateLabels(days, g),
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

/** The bar of the `i`th day: its segments stacked from the bottom, and its tooltip. */
function bar(d: UsageDay, i: number, g: Geometry): UsageChart['bars'][number] {
  let base = HEIGHT - BOTTOM;
  const segments: UsageChart['bars'][number]['segments'] = [];
  for (const [kind, value] of [
    ['research', d.research],
    ['your-data', d.your_data],
    ['other', d.other],
  ] as const) {
    if (value <= 0) continue;
    const h = g.scale(value);
    base -= h;
    segments.push({ kind, y: round(base), height: round(h) });
  }
  return {
    x: round(LEFT + i * g.slot + (g.slot - g.barWidth) / 2),
    width: round(g.barWidth),
    title: `${d.date}: ${num(d.calls)} calls (research ${num(d.research)}, your data ${num(d.your_data)}, other ${num(d.other)})`,
    segments,
  };
}

/** A date under every n-th bar (at most about six), counted back from the newest day. */
function dateLabels(days: UsageDay[], g: Geometry): UsageChart['labels'] {
  const every = Math.max(1, Math.ceil(days.length / 6));
  return days
    .map((d, i) => ({ i, d }))
    .filter(({ i }) => (days.length - 1 - i) % every === 0)
    .map(({ i, d }) => ({ x: round(LEFT + i * g.slot + g.slot / 2), text: shortDate(d.date) }));
}
