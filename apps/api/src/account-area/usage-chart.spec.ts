import { axisTop, usageChart } from './usage-chart';

const day = (date: string, research: number, yourData: number, other: number) => ({
  date,
  research,
  your_data: yourData,
  other,
  calls: research + yourData + other,
});

describe('console usage chart', () => {
  it.each([
    [0, 4],
    [3, 4],
    [5, 5],
    [10, 10],
    [11, 20],
    [42, 50],
    [999, 1000],
    [1001, 2000],
  ])('axis top for a highest day of %i is %i', (max, top) => {
    expect(axisTop(max)).toBe(top);
  });

  it('stacks research, your data and other from the bottom, scaled to the axis top', () => {
    const chart = usageChart([day('2026-11-01', 0, 0, 0), day('2026-11-02', 10, 20, 20)]);
    expect(chart.bars).toHaveLength(2);
    expect(chart.bars[0].segments).toEqual([]);
    const [r, y, o] = chart.bars[1].segments;
    expect([r.kind, y.kind, o.kind]).toEqual(['research', 'your-data', 'other']);
    // 50 calls on an axis of 50: the stack fills the plot, each segment above the previous.
    expect(r.y + r.height).toBeCloseTo(chart.height - 24, 0);
    expect(y.y + y.height).toBeCloseTo(r.y, 0);
    expect(o.y).toBeCloseTo(8, 0);
    expect(chart.ticks.map((t) => t.label)).toEqual(['0', '25', '50']);
    expect(chart.total).toBe('50');
    expect(chart.summary).toBe('API calls per day from 2026-11-01 to 2026-11-02: 50 in all.');
    expect(chart.rows.map((row) => row.date)).toEqual(['2026-11-02', '2026-11-01']);
    expect(chart.bars[1].title).toBe('2026-11-02: 50 calls (research 10, your data 20, other 20)');
  });

  it('labels about six days, the last one always, and keeps every bar inside the plot', () => {
    const days = Array.from({ length: 30 }, (_, i) =>
      day(`2026-11-${String(i + 1).padStart(2, '0')}`, i, 0, 0),
    );
    const chart = usageChart(days);
    expect(chart.labels.length).toBeLessThanOrEqual(6);
    expect(chart.labels[chart.labels.length - 1].text).toBe('Nov 30');
    for (const bar of chart.bars) {
      expect(bar.x).toBeGreaterThanOrEqual(chart.plotLeft);
      expect(bar.x + bar.width).toBeLessThanOrEqual(chart.plotRight);
    }
  });
});
