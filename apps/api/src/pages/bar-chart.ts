/**
 * The pages' bar chart (the console's usage chart, an AI-visibility project's scores): bars
 * of dated figures, stacked from the bottom, with grid lines and date labels, computed here
 * as geometry and text only; the page places it as inline SVG (no chart library). Used by
 * apps/api/src/account-area/usage-chart.ts and the AI-visibility scores of the console.
 */
export interface BarChart<K extends string = string> {
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
    segments: Array<{ kind: K; y: number; height: number }>;
  }>;
  /** Date labels under some bars. */
  labels: Array<{ x: number; text: string }>;
}

/** One bar: its date (YYYY-MM-DD), tooltip, and parts stacked from the bottom in this order. */
export interface BarPoint<K extends string> {
  date: string;
  title: string;
  parts: ReadonlyArray<readonly [K, number]>;
}

const WIDTH = 640;
const HEIGHT = 220;
const LEFT = 44; // room for the tick labels
const BOTTOM = 24; // room for the date labels
const TOP = 8;
const RIGHT = 20; // room for the last date label

export const num = (n: number): string => n.toLocaleString('en-US');

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

/** The chart's scale: the axis's top, each bar's slot and width, figures → pixels. */
interface Geometry {
  top: number;
  slot: number;
  barWidth: number;
  scale: (n: number) => number;
}

const stackOf = <K extends string>(p: BarPoint<K>): number =>
  p.parts.reduce((sum, [, v]) => sum + Math.max(0, v), 0);

function geometry<K extends string>(points: BarPoint<K>[], top: number | undefined): Geometry {
  const axis = top ?? axisTop(Math.max(0, ...points.map(stackOf)));
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const slot = (WIDTH - LEFT - RIGHT) / Math.max(points.length, 1);
  return {
    top: axis,
    slot,
    barWidth: Math.max(2, slot * 0.7),
    scale: (n: number): number => (n / axis) * plotHeight,
  };
}

/**
 * The chart of `points` (oldest first). `top`: the axis's top when the scale is fixed (a
 * score of 0-100), else the nearest of 1, 2, 5 × 10^k above the highest stack.
 */
export function barChart<K extends string>(
  points: BarPoint<K>[],
  options: { summary: string; top?: number },
): BarChart<K> {
  const g = geometry(points, options.top);
  return {
    width: WIDTH,
    height: HEIGHT,
    plotLeft: LEFT,
    plotRight: WIDTH - RIGHT,
    labelY: HEIGHT - 6,
    tickX: LEFT - 6,
    summary: options.summary,
    ticks: [0, g.top / 2, g.top].map((v) => ({
      y: round(HEIGHT - BOTTOM - g.scale(v)),
      label: num(v),
    })),
    bars: points.map((p, i) => bar(p, i, g)),
    labels: dateLabels(points, g),
  };
}

/** The bar of the `i`th point: its segments stacked from the bottom, and its tooltip. */
function bar<K extends string>(
  p: BarPoint<K>,
  i: number,
  g: Geometry,
): BarChart<K>['bars'][number] {
  let base = HEIGHT - BOTTOM;
  const segments: BarChart<K>['bars'][number]['segments'] = [];
  for (const [kind, value] of p.parts) {
    if (value <= 0) continue;
    const h = g.scale(value);
    base -= h;
    segments.push({ kind, y: round(base), height: round(h) });
  }
  return {
    x: round(LEFT + i * g.slot + (g.slot - g.barWidth) / 2),
    width: round(g.barWidth),
    title: p.title,
    segments,
  };
}

/** A date under every n-th bar (at most about six), counted back from the newest. */
function dateLabels<K extends string>(points: BarPoint<K>[], g: Geometry): BarChart['labels'] {
  const every = Math.max(1, Math.ceil(points.length / 6));
  return points
    .map((p, i) => ({ i, p }))
    .filter(({ i }) => (points.length - 1 - i) % every === 0)
    .map(({ i, p }) => ({ x: round(LEFT + i * g.slot + g.slot / 2), text: shortDate(p.date) }));
}
