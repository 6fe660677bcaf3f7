import { positionChange, trendOf } from './rank.mapper';

describe('rank mapping', () => {
  it('position_change is previous − current (positive = moved up), null when either is null', () => {
    expect(positionChange(8, 3)).toBe(5);
    expect(positionChange(3, 8)).toBe(-5);
    expect(positionChange(null, 3)).toBeNull();
    expect(positionChange(3, null)).toBeNull();
  });

  it('trend: first = oldest, latest = newest, best/worst ignore unranked checks', () => {
    const t = trendOf([
      { position: null },
      { position: 4 },
      { position: 12 },
      { position: null },
      { position: 7 },
    ]);
    expect(t).toEqual({ first: 7, latest: null, best: 4, worst: 12 });
  });

  it('trend: best and worst are null when never ranked; everything null without checks', () => {
    expect(trendOf([{ position: null }, { position: null }])).toEqual({
      first: null,
      latest: null,
      best: null,
      worst: null,
    });
    expect(trendOf([])).toEqual({ first: null, latest: null, best: null, worst: null });
  });
});
