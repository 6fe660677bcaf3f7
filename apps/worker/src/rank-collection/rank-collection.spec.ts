import { marketBatches } from './keyword-metrics.service';
import { parseTaskTag, taskTag } from './rank-collection.service';

describe('rank collection helpers', () => {
  it('a task tag carries the keyword and its day, and reads back', () => {
    const tag = taskTag(42, '2026-09-01', 2);
    expect(tag).toBe('rk:42:2026-09-01:2');
    expect(parseTaskTag(tag)).toEqual({ keywordId: 42, day: '2026-09-01' });
    expect(parseTaskTag('kw_42|2026-09-01|desktop')).toBeNull();
    expect(parseTaskTag(null)).toBeNull();
  });

  it('metrics batches hold keywords of one market, at most 700 each', () => {
    const row = (id: number, country: string, language = 'en') => ({
      id,
      account_id: 1,
      keyword: `k${id}`,
      country,
      language,
    });
    const due = [
      ...Array.from({ length: 701 }, (_, i) => row(i, 'GB')),
      row(1000, 'US'),
      row(1001, 'US', 'es'),
    ];
    const batches = marketBatches(due);
    expect(batches.map((b) => [b[0].country, b[0].language, b.length])).toEqual([
      ['GB', 'en', 700],
      ['GB', 'en', 1],
      ['US', 'en', 1],
      ['US', 'es', 1],
    ]);
  });
});
