import { ApiError } from '@app/core';
import { resolveGscQuery, splitPeriod } from './gsc-query-params';

const now = new Date('2026-06-15T23:59:59Z');

describe('resolveGscQuery (GET /gsc/queries parameters)', () => {
  it('defaults: dim query, sort clicks, dir desc, limit 100, from = today − 28 days, to = today', () => {
    expect(resolveGscQuery({}, now)).toEqual({
      dim: 'query',
      sort: 'clicks',
      dir: 'desc',
      limit: 100,
      from: '2026-05-18',
      to: '2026-06-15',
    });
  });

  it('unrecognized dim / sort (or repeated values) fall back silently; known ones match case-insensitively', () => {
    expect(resolveGscQuery({ dim: 'browser', sort: 'revenue' }, now)).toMatchObject({
      dim: 'query',
      sort: 'clicks',
    });
    expect(resolveGscQuery({ dim: ['page', 'query'], sort: ['key'] }, now)).toMatchObject({
      dim: 'query',
      sort: 'clicks',
    });
    expect(resolveGscQuery({ dim: 'searchappearance', sort: 'CTR' }, now)).toMatchObject({
      dim: 'searchAppearance',
      sort: 'ctr',
    });
  });

  it('an explicit `to` before the default start moves the default start to 28 days before `to`', () => {
    expect(resolveGscQuery({ to: '2026-01-31' }, now)).toMatchObject({
      from: '2026-01-03',
      to: '2026-01-31',
    });
    expect(resolveGscQuery({ to: '2026-06-01' }, now)).toMatchObject({
      from: '2026-05-18',
      to: '2026-06-01',
    });
  });

  it('from after to is a validation error; from = to is one day', () => {
    expect(() => resolveGscQuery({ from: '2026-06-02', to: '2026-06-01' }, now)).toThrow(ApiError);
    expect(resolveGscQuery({ from: '2026-06-01', to: '2026-06-01' }, now)).toMatchObject({
      from: '2026-06-01',
      to: '2026-06-01',
    });
  });
});

describe('splitPeriod (monthly + daily rollups)', () => {
  it('a period inside one month is all days', () => {
    expect(splitPeriod('2026-05-18', '2026-06-15')).toEqual({
      months: null,
      days: [['2026-05-18', '2026-06-15']],
    });
    expect(splitPeriod('2026-06-01', '2026-06-29')).toEqual({
      months: null,
      days: [['2026-06-01', '2026-06-29']],
    });
  });

  it('whole months come from the monthly rollups, the edges from the daily ones', () => {
    expect(splitPeriod('2026-03-18', '2026-06-15')).toEqual({
      months: ['2026-04-01', '2026-05-01'],
      days: [
        ['2026-03-18', '2026-03-31'],
        ['2026-06-01', '2026-06-15'],
      ],
    });
    expect(splitPeriod('2026-04-01', '2026-05-31')).toEqual({
      months: ['2026-04-01', '2026-05-01'],
      days: [],
    });
    expect(splitPeriod('2026-02-01', '2026-02-28')).toEqual({
      months: ['2026-02-01', '2026-02-01'],
      days: [],
    });
    expect(splitPeriod('2025-12-31', '2026-02-01')).toEqual({
      months: ['2026-01-01', '2026-01-01'],
      days: [
        ['2025-12-31', '2025-12-31'],
        ['2026-02-01', '2026-02-01'],
      ],
    });
  });
});
