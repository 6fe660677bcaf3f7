import { GscPartitionRepository, Sql } from '@app/database';
import { AdminClient, TestAccount } from '../helpers/fixtures';
import { createTestApp, TestApp } from '../helpers/test-app';
import { GENEROUS, YourDataAdmin, get } from './your-data-fixtures';

/**
 * gsc_weekly_rollups (migration 1764600000000, docs/your-data.md "Search Console"): sums of
 * the 7-day blocks of a month (days 1-7, 8-14, 15-21, 22-28, 29-end), maintained by the
 * ingestion like the daily and monthly rollups, read by /gsc/queries for the whole blocks of
 * a period's edges, trimmed by the retention with their month.
 */
describe('GSC weekly (7-day month block) rollups', () => {
  let t: TestApp;
  let yd: YourDataAdmin;
  let acc: TestAccount;
  let prop: number;

  const DIMS = ['query', 'page', 'country', 'device', 'searchAppearance'];
  // Days around block and month edges: 7/8 (block edge), 28/29/31 (last block), Feb 28 → Mar 1.
  const DATES = [
    '2026-02-27',
    '2026-02-28',
    '2026-03-01',
    '2026-04-29',
    '2026-04-30',
    '2026-05-01',
    '2026-05-07',
    '2026-05-08',
    '2026-05-21',
    '2026-05-22',
    '2026-05-28',
    '2026-05-29',
    '2026-05-31',
    '2026-06-01',
    '2026-06-14',
    '2026-06-15',
  ];
  const fact = (i: number, over: Record<string, unknown> = {}) => ({
    date: DATES[i % DATES.length],
    query: `q${i % 7}`,
    page: `https://ex.com/${i % 3}`,
    country: i % 2 ? 'usa' : 'gbr',
    device: ['desktop', 'mobile', 'tablet'][i % 3],
    search_appearance: i % 5 === 0 ? 'VIDEO' : '',
    clicks: i % 9,
    impressions: 10 + i,
    position: 1 + (i % 13) / 2,
    ...over,
  });

  beforeAll(async () => {
    t = await createTestApp({ now: '2026-06-15T12:00:00Z' });
    const admin = new AdminClient(t.url);
    yd = new YourDataAdmin(admin);
    acc = await admin.account('agency', GENEROUS);
    prop = await yd.gscProperty(acc.id, 'sc-domain:weekly.example');
    // Inserts, then replacements of half of them, then zeroed rows.
    await yd.gscRows(
      prop,
      Array.from({ length: 200 }, (_, i) => fact(i)),
    );
    await yd.gscRows(
      prop,
      Array.from({ length: 100 }, (_, i) =>
        fact(i * 2, { clicks: 3, impressions: 40, position: 2.25 }),
      ),
    );
    await yd.gscRows(
      prop,
      Array.from({ length: 30 }, (_, i) => fact(i * 3, { clicks: 0, impressions: 0 })),
    );
  });
  afterAll(() => t.close());

  it('equal a fresh aggregation of the facts by 7-day month block after inserts, replacements and zeroed rows', async () => {
    const diff = await t.db.query(
      `WITH fresh AS (
         SELECT date_trunc('month', date)::date + least((extract(day FROM date)::int - 1) / 7, 4) * 7 AS week,
                CASE WHEN GROUPING(query) = 0 THEN 'query' WHEN GROUPING(page) = 0 THEN 'page'
                     WHEN GROUPING(country) = 0 THEN 'country' WHEN GROUPING(device) = 0 THEN 'device'
                     ELSE 'searchAppearance' END AS dim,
                COALESCE(query, page, country, device, search_appearance) AS key,
                sum(clicks) AS c, sum(impressions) AS i, sum(position * impressions) AS p
         FROM gsc_rows WHERE property_id = $1
         GROUP BY 1, GROUPING SETS ((query), (page), (country), (device), (search_appearance))
       ), f AS (SELECT * FROM fresh WHERE NOT (dim = 'searchAppearance' AND key = ''))
       SELECT (SELECT count(*) FROM f FULL JOIN (SELECT * FROM gsc_weekly_rollups WHERE property_id = $1) r
                 ON r.dim = f.dim AND r.week = f.week AND r.key = f.key
               WHERE r.key IS NULL OR f.key IS NULL OR r.clicks <> f.c OR r.impressions <> f.i
                  OR abs(r.position_weighted - f.p) > 1e-6)::int AS weekly_diff,
              (SELECT count(DISTINCT week)::int FROM gsc_weekly_rollups WHERE property_id = $1) AS weeks`,
      [prop],
    );
    expect(diff[0]).toEqual({ weekly_diff: 0, weeks: 11 });
  });

  it('/gsc/queries over periods read from blocks answers a fresh aggregation of the facts', async () => {
    const periods: Array<[string, string]> = [
      ['2026-05-18', '2026-06-15'], // the default window: blocks 05-22, 05-29, 06-01, 06-08
      ['2026-04-29', '2026-06-14'], // a whole month, block 04-29 and blocks of June
      ['2026-02-22', '2026-03-01'], // Feb's last block (22-28) and one day
      ['2026-05-08', '2026-05-21'], // exactly two blocks
      ['2026-05-09', '2026-05-28'], // partial blocks at both ends
    ];
    for (const [from, to] of periods) {
      for (const dim of DIMS) {
        const res = await get(
          t,
          acc,
          `/api/v1/gsc/queries?property_id=${prop}&dim=${dim}&from=${from}&to=${to}&sort=key&dir=asc&limit=100`,
        );
        expect(res.status).toBe(200);
        const col = dim === 'searchAppearance' ? 'search_appearance' : dim;
        const ref = (await t.db.query(
          `SELECT ${col} AS key, sum(clicks)::int AS clicks, sum(impressions)::int AS impressions
           FROM gsc_rows WHERE property_id = $1 AND date BETWEEN $2::date AND $3::date
             AND NOT ($4 AND ${col} = '')
           GROUP BY 1`,
          [prop, from, to, dim === 'searchAppearance'],
        )) as Array<{ key: string; clicks: number; impressions: number }>;
        const got = (
          res.body.data.rows as Array<{ key: string; clicks: number; impressions: number }>
        ).map((r) => ({ key: r.key, clicks: r.clicks, impressions: r.impressions }));
        expect({ from, to, dim, rows: [...got].sort((a, b) => (a.key < b.key ? -1 : 1)) }).toEqual({
          from,
          to,
          dim,
          rows: [...ref].sort((a, b) => (a.key < b.key ? -1 : 1)),
        });
        expect(res.body.data.total_rows).toBe(ref.length);
      }
    }
  });

  it('the retention deletes the weekly rollups of the dropped months with them', async () => {
    // Rollup rows only, in a month long before any suite's data: old facts would be seen by
    // the retention suite running in parallel (it counts every old fact). The retention is
    // global, so only this property's rows are asserted on.
    await t.db.query(
      `INSERT INTO gsc_weekly_rollups (property_id, account_id, dim, week, key, clicks, impressions, position_weighted)
       VALUES ($1, $2, 'query', '2019-03-01', 'old', 1, 10, 30), ($1, $2, 'query', '2019-03-29', 'old', 1, 10, 30)`,
      [prop, acc.id],
    );
    const weeks = async () =>
      (
        (await t.db.query(
          `SELECT DISTINCT to_char(week, 'YYYY-MM-DD') AS week FROM gsc_weekly_rollups
           WHERE property_id = $1 ORDER BY 1`,
          [prop],
        )) as Array<{ week: string }>
      ).map((w) => w.week);
    const before = await weeks();
    expect(before).toEqual(expect.arrayContaining(['2019-03-01', '2019-03-29', '2026-05-01']));
    let result = null;
    for (let attempt = 0; attempt < 20 && !result; attempt++)
      result = await new GscPartitionRepository(t.app.get(Sql)).dropMonthsBefore('2019-04-01');
    expect(result).not.toBeNull();
    expect(await weeks()).toEqual(before.filter((w) => w >= '2019-04-01'));
  });
});
