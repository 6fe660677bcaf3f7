import { UsageHistoryRetentionService, shapeHistory } from './usage-history.service';
import type { UsageSummaryRow } from './usage-history.repository';

const row = (r: Partial<UsageSummaryRow>): UsageSummaryRow => ({
  by: 'day',
  day: null,
  cost_group: null,
  key_id: null,
  grant_id: null,
  endpoint: null,
  calls: 0,
  key_label: null,
  key_prefix: null,
  client_name: null,
  ...r,
});

describe('usage history', () => {
  const today = new Date('2026-11-24T15:00:00Z');

  it('fills every day, sums the groups, orders callers and endpoints by calls', () => {
    const h = shapeHistory(
      [
        row({ by: 'day', day: '2026-11-24', cost_group: 'research', calls: 2 }),
        row({ by: 'day', day: '2026-11-24', cost_group: 'your-data', calls: 5 }),
        row({ by: 'day', day: '2026-11-22', cost_group: 'other', calls: 1 }),
        row({
          by: 'caller',
          key_id: 7,
          grant_id: 0,
          calls: 3,
          key_label: 'b',
          key_prefix: 'seo_x',
        }),
        row({ by: 'caller', key_id: 0, grant_id: 4, calls: 5, client_name: 'Claude' }),
        row({ by: 'caller', key_id: 0, grant_id: 9, calls: 3 }),
        row({ by: 'endpoint', endpoint: 'GET /usage', calls: 1 }),
        row({ by: 'endpoint', endpoint: 'GET /backlinks', calls: 7 }),
      ],
      '2026-11-22',
      '2026-11-24',
      3,
      today,
    );
    expect(h.days).toEqual([
      { date: '2026-11-22', calls: 1, research: 0, your_data: 0, other: 1 },
      { date: '2026-11-23', calls: 0, research: 0, your_data: 0, other: 0 },
      { date: '2026-11-24', calls: 7, research: 2, your_data: 5, other: 0 },
    ]);
    expect(h.keys).toEqual([
      { id: 4, label: 'Claude', prefix: null, calls: 5 },
      { id: 9, label: 'A connected app (since removed)', prefix: null, calls: 3 },
      { id: 7, label: 'b', prefix: 'seo_x', calls: 3 },
    ]);
    expect(h.endpoints.map((e) => e.endpoint)).toEqual(['GET /backlinks', 'GET /usage']);
  });

  it.each([
    ['2026-11-24T10:00:00Z', '2025-10-01'],
    ['2026-01-01T00:00:00Z', '2024-12-01'],
    ['2026-12-31T23:59:59Z', '2025-11-01'],
  ])('on %s the retention keeps days from %s on', (now, cutoff) => {
    expect(UsageHistoryRetentionService.cutoff(new Date(now))).toBe(cutoff);
  });
});
