import { effectiveMaxPages, pageBudgetResetsAt, pageBudgetWindowStart } from './page-budget';

describe('site-audit rolling page budget', () => {
  it('caps max_pages by the per-crawl limit and the remaining rolling budget', () => {
    expect(effectiveMaxPages(100, 500, 5000, 0)).toBe(100);
    expect(effectiveMaxPages(1000, 500, 5000, 0)).toBe(500);
    expect(effectiveMaxPages(100, 500, 5000, 4950)).toBe(50);
    expect(effectiveMaxPages(100, 500, 5000, 5000)).toBe(0);
    expect(effectiveMaxPages(100, 500, 5000, 6000)).toBe(0); // over budget after a plan downgrade
  });

  it('the window is the last 30 days', () => {
    expect(pageBudgetWindowStart(new Date('2026-03-31T12:00:00Z')).toISOString()).toBe(
      '2026-03-01T12:00:00.000Z',
    );
  });

  it('resets when enough of the oldest pages leave the window to free one page', () => {
    const rows = [
      { createdAt: new Date('2026-01-10T00:00:00Z'), pages: 0 }, // refunded: frees nothing
      { createdAt: new Date('2026-01-05T00:00:00Z'), pages: 10 },
      { createdAt: new Date('2026-01-20T00:00:00Z'), pages: 90 },
    ];
    // budget 100, used 100: the 10 pages of 5 Jan free up 30 days later
    expect(pageBudgetResetsAt(rows, 100, 100)?.toISOString()).toBe('2026-02-04T00:00:00.000Z');
    // budget lowered to 50 with 100 used: both rows must leave
    expect(pageBudgetResetsAt(rows, 50, 100)?.toISOString()).toBe('2026-02-19T00:00:00.000Z');
    // a budget of 0 never frees a page
    expect(pageBudgetResetsAt(rows, 0, 100)).toBeNull();
  });
});
