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

  it('folds each run of two or more empty days behind one summary row, newest first', () => {
    // Oldest first: Nov 1 has calls, Nov 2-5 none, Nov 6 calls, Nov 7 none, Nov 8 calls.
    const calls = [3, 0, 0, 0, 0, 5, 0, 2];
    const chart = usageChart(calls.map((n, i) => day(`2026-11-0${i + 1}`, n, 0, 0)));
    const shape = chart.tableRows.map((r) =>
      r.day
        ? `${r.date}${r.run ? ` (run ${r.run})` : ''}`
        : `${r.count} empty ${r.oldest}..${r.newest}`,
    );
    expect(shape).toEqual([
      '2026-11-08',
      '2026-11-07',
      '2026-11-06',
      '4 empty 2026-11-02..2026-11-05',
      '2026-11-05 (run 1)',
      '2026-11-04 (run 1)',
      '2026-11-03 (run 1)',
      '2026-11-02 (run 1)',
      '2026-11-01',
    ]);
    // Every day is still in the table, once.
    expect(chart.tableRows.filter((r) => r.day)).toHaveLength(8);
  });
});
