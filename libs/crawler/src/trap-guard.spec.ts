import { TrapGuard } from './trap-guard';

describe('TrapGuard (crawl-trap resistance)', () => {
  it('caps date-shaped URL patterns (endless calendars) but not ordinary numeric ids', () => {
    const g = new TrapGuard(1024, 25, 3);
    expect(g.admit('https://e.com/calendar/2026-11')).toBeNull();
    expect(g.admit('https://e.com/calendar/2026-12')).toBeNull();
    expect(g.admit('https://e.com/calendar/2026-12-01')).toBeNull();
    expect(g.admit('https://e.com/calendar/2027-01')).toEqual({
      reason: 'date_pattern',
      pattern: '/calendar/{date}?',
    });
    // /yyyy/mm/dd path style
    expect(g.admit('https://e.com/events/2026/11/01')).toBeNull();
    expect(g.admit('https://e.com/events/2026/11/02')).toBeNull();
    expect(g.admit('https://e.com/events/2026/11/03')).toBeNull();
    expect(g.admit('https://e.com/events/2026/11/04')?.reason).toBe('date_pattern');
    // blog permalinks differ by slug: separate patterns
    for (let i = 0; i < 10; i++) expect(g.admit(`https://e.com/2026/11/post-${i}`)).toBeNull();
    // numeric product ids are not a trap
    for (let i = 0; i < 100; i++) expect(g.admit(`https://e.com/product/${i}`)).toBeNull();
  });

  it('caps date values in the query string', () => {
    const g = new TrapGuard(1024, 100, 2);
    expect(g.admit('https://e.com/cal?month=2026-01')).toBeNull();
    expect(g.admit('https://e.com/cal?month=2026-02')).toBeNull();
    expect(g.admit('https://e.com/cal?month=2026-03')).toEqual({
      reason: 'date_pattern',
      pattern: '/cal?month={date}',
    });
  });

  it('caps distinct query variants per path (faceted navigation)', () => {
    const g = new TrapGuard(1024, 3, 30);
    expect(g.admit('https://e.com/shop?color=red')).toBeNull();
    expect(g.admit('https://e.com/shop?color=blue')).toBeNull();
    expect(g.admit('https://e.com/shop?color=blue&size=m')).toBeNull();
    expect(g.admit('https://e.com/shop?color=green')?.reason).toBe('query_variants');
    expect(g.admit('https://e.com/shop')).toBeNull(); // the bare path is not a variant
    expect(g.admit('https://e.com/other?color=green')).toBeNull();
  });

  it('refuses over-long URLs and repeated path segments', () => {
    const g = new TrapGuard(100, 25, 30);
    expect(g.admit(`https://e.com/${'a'.repeat(120)}`)?.reason).toBe('url_too_long');
    expect(g.admit('https://e.com/a/b/a/b/a/b')?.reason).toBe('repeated_segments');
    expect(g.admit('https://e.com/x/x/x')?.reason).toBe('repeated_segments');
    expect(
      g.admit(`https://e.com/${Array.from({ length: 16 }, (_, i) => `s${i}`).join('/')}`)?.reason,
    ).toBe('repeated_segments');
    expect(g.admit('https://e.com/a/b/a/c')).toBeNull();
  });
});
