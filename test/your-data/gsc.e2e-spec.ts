import { AdminClient, TestAccount } from '../helpers/fixtures';
import { createTestApp, TestApp } from '../helpers/test-app';
import { GENEROUS, YourDataAdmin, get } from './your-data-fixtures';

// "Today" is 2026-06-15 on the injected clock; the default period is 2026-05-18 … 2026-06-15.
describe('Search Console: GET /gsc/properties and /gsc/queries (spec: Search-console property / rows)', () => {
  let t: TestApp;
  let yd: YourDataAdmin;
  let acc: TestAccount;
  let other: TestAccount;
  let prop: number;
  let otherProp: number;

  const row = (over: Record<string, unknown>) => ({
    date: '2026-06-10',
    query: 'shoes',
    page: 'https://ex.com/a',
    country: 'usa',
    device: 'desktop',
    clicks: 1,
    impressions: 10,
    position: 5,
    ...over,
  });

  beforeAll(async () => {
    t = await createTestApp({ now: '2026-06-15T23:59:00Z' });
    const admin = new AdminClient(t.url);
    yd = new YourDataAdmin(admin);
    acc = await admin.account('pro', GENEROUS);
    other = await admin.account('pro', GENEROUS);
    prop = await yd.gscProperty(acc.id, 'sc-domain:ex.com', {
      display_name: 'Ex main',
      last_synced_at: '2026-06-15 06:00:00',
      last_sync_status: 'ok',
      is_sandbox: true,
    });
    otherProp = await yd.gscProperty(other.id, 'sc-domain:other.com');
    await yd.gscRows(prop, [
      // shoes: 10 + 30 clicks, 100 + 300 impressions, positions 2 and 6 → weighted (200 + 1800) / 400 = 5
      row({ query: 'shoes', page: 'https://ex.com/a', clicks: 10, impressions: 100, position: 2 }),
      row({
        query: 'shoes',
        page: 'https://ex.com/b',
        device: 'mobile',
        clicks: 30,
        impressions: 300,
        position: 6,
        date: '2026-06-11',
      }),
      // boots: 40 clicks / 1000 impressions, position 10, with a search appearance
      row({
        query: 'boots',
        page: 'https://ex.com/b',
        country: 'gbr',
        clicks: 40,
        impressions: 1000,
        position: 10,
        search_appearance: 'VIDEO',
      }),
      // socks: ties boots on clicks (40) → ordered by key
      row({
        query: 'socks',
        page: 'https://ex.com/c',
        clicks: 40,
        impressions: 80,
        position: 1.5,
        date: '2026-05-20',
      }),
      // outside the default period (more than 28 days ago) and in the future
      row({ query: 'old', clicks: 999, impressions: 1000, date: '2026-05-17' }),
      row({ query: 'future', clicks: 999, impressions: 1000, date: '2026-06-16' }),
    ]);
  });
  afterAll(() => t.close());

  it('GET /gsc/properties lists the account’s properties with spec fields and count', async () => {
    const res = await get(t, acc, '/api/v1/gsc/properties');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      properties: [
        {
          property_id: prop,
          property_uri: 'sc-domain:ex.com',
          display_name: 'Ex main',
          status: 'active',
          last_synced_at: '2026-06-15 06:00:00',
          last_sync_status: 'ok',
          google_email: 'owner@example.com',
          is_sandbox: true,
        },
      ],
      count: 1,
    });
  });

  it('aggregates by query over the default period (today − 28 days … today): sums, ctr %, weighted position', async () => {
    const res = await get(t, acc, `/api/v1/gsc/queries?property_id=${prop}`);
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(d).toMatchObject({
      property_id: prop,
      dim: 'query',
      from: '2026-05-18',
      to: '2026-06-15',
      total_rows: 3,
    });
    // all three have 40 clicks: the tie is broken by key
    expect(d.rows).toEqual([
      { key: 'boots', clicks: 40, impressions: 1000, ctr: 4, position: 10 },
      { key: 'shoes', clicks: 40, impressions: 400, ctr: 10, position: 5 },
      { key: 'socks', clicks: 40, impressions: 80, ctr: 50, position: 1.5 },
    ]);
    // totals: 120 clicks / 1480 impressions; position (2000 + 10000 + 120) / 1480 = 8.19
    expect(d.totals).toEqual({ clicks: 120, impressions: 1480, ctr: 8.11, position: 8.19 });
    expect(res.body.meta).toMatchObject({ sort: 'clicks', dir: 'desc', limit: 100 });
  });

  it('ties are broken by key ascending, whatever the direction', async () => {
    const desc = await get(t, acc, `/api/v1/gsc/queries?property_id=${prop}`);
    expect(desc.body.data.rows.map((r: { key: string }) => r.key)).toEqual(
      ['shoes', 'boots', 'socks'].sort(),
    );
    const asc = await get(t, acc, `/api/v1/gsc/queries?property_id=${prop}&dir=asc`);
    expect(asc.body.data.rows.map((r: { key: string }) => r.key)).toEqual([
      'boots',
      'shoes',
      'socks',
    ]);
  });

  it('totals and total_rows cover the whole period whatever the limit', async () => {
    const res = await get(
      t,
      acc,
      `/api/v1/gsc/queries?property_id=${prop}&limit=1&sort=impressions`,
    );
    expect(res.body.data.rows).toEqual([
      { key: 'boots', clicks: 40, impressions: 1000, ctr: 4, position: 10 },
    ]);
    expect(res.body.data.total_rows).toBe(3);
    expect(res.body.data.totals.clicks).toBe(120);
    expect(res.body.meta).toMatchObject({ sort: 'impressions', limit: 1 });
  });

  it.each([
    ['ctr', 'desc', ['socks', 'shoes', 'boots']],
    ['position', 'asc', ['socks', 'shoes', 'boots']],
    ['key', 'asc', ['boots', 'shoes', 'socks']],
    ['key', 'desc', ['socks', 'shoes', 'boots']],
    ['impressions', 'asc', ['socks', 'shoes', 'boots']],
  ])('sort=%s dir=%s orders the rows', async (sort, dir, keys) => {
    const res = await get(
      t,
      acc,
      `/api/v1/gsc/queries?property_id=${prop}&sort=${sort}&dir=${dir}`,
    );
    expect(res.body.data.rows.map((r: { key: string }) => r.key)).toEqual(keys);
    expect(res.body.meta).toMatchObject({ sort, dir });
  });

  it.each([
    ['page', ['https://ex.com/b', 'https://ex.com/c', 'https://ex.com/a'], 3],
    ['country', ['usa', 'gbr'], 2],
    ['device', ['desktop', 'mobile'], 2],
    ['date', ['2026-06-10', '2026-05-20', '2026-06-11'], 3],
    ['searchAppearance', ['VIDEO'], 1],
  ])('dim=%s groups by that dimension', async (dim, keys, total) => {
    const res = await get(t, acc, `/api/v1/gsc/queries?property_id=${prop}&dim=${dim}`);
    expect(res.status).toBe(200);
    expect(res.body.data.dim).toBe(dim);
    expect(res.body.data.rows.map((r: { key: string }) => r.key)).toEqual(keys);
    expect(res.body.data.total_rows).toBe(total);
  });

  it('page dim sums across queries: /b has shoes (30/300, pos 6) and boots (40/1000, pos 10)', async () => {
    // position = (6 × 300 + 10 × 1000) / 1300 = 9.08
    const res = await get(t, acc, `/api/v1/gsc/queries?property_id=${prop}&dim=page`);
    expect(res.body.data.rows[0]).toEqual({
      key: 'https://ex.com/b',
      clicks: 70,
      impressions: 1300,
      ctr: 5.38,
      position: 9.08,
    });
  });

  it('unknown dim and sort fall back silently to query / clicks and are echoed', async () => {
    const res = await get(
      t,
      acc,
      `/api/v1/gsc/queries?property_id=${prop}&dim=browser&sort=revenue`,
    );
    expect(res.status).toBe(200);
    expect(res.body.data.dim).toBe('query');
    expect(res.body.meta.sort).toBe('clicks');
    const hostile = await get(
      t,
      acc,
      `/api/v1/gsc/queries?property_id=${prop}&dim=query;DROP%20TABLE%20gsc_rows&sort=clicks%20DESC;--`,
    );
    expect(hostile.status).toBe(200);
    expect(hostile.body.data).toMatchObject({ dim: 'query', total_rows: 3 });
    expect(hostile.body.meta.sort).toBe('clicks');
  });

  it('from/to choose the period (inclusive); an empty period has zero totals and no rows', async () => {
    const res = await get(
      t,
      acc,
      `/api/v1/gsc/queries?property_id=${prop}&from=2026-05-17&to=2026-05-20`,
    );
    expect(res.body.data.rows.map((r: { key: string }) => r.key)).toEqual(['old', 'socks']);
    expect(res.body.data).toMatchObject({ from: '2026-05-17', to: '2026-05-20', total_rows: 2 });
    const empty = await get(
      t,
      acc,
      `/api/v1/gsc/queries?property_id=${prop}&from=2025-01-01&to=2025-01-31`,
    );
    expect(empty.body.data).toMatchObject({
      rows: [],
      total_rows: 0,
      totals: { clicks: 0, impressions: 0, ctr: null, position: null },
    });
  });

  it('the default period follows the injected clock', async () => {
    t.clock.set('2026-06-17T01:00:00Z');
    try {
      const res = await get(t, acc, `/api/v1/gsc/queries?property_id=${prop}`);
      expect(res.body.data).toMatchObject({ from: '2026-05-20', to: '2026-06-17' });
      expect(res.body.data.rows.map((r: { key: string }) => r.key)).toContain('future');
    } finally {
      t.clock.set('2026-06-15T23:59:00Z');
    }
  });

  it('another account’s property (or an absent one) is 404 NOT_FOUND', async () => {
    const res = await get(t, acc, `/api/v1/gsc/queries?property_id=${otherProp}`);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
    expect((await get(t, acc, '/api/v1/gsc/queries?property_id=2147483647')).status).toBe(404);
    const list = await get(t, other, '/api/v1/gsc/properties');
    expect(list.body.data.properties.map((p: { property_id: number }) => p.property_id)).toEqual([
      otherProp,
    ]);
  });

  it.each([
    ['', 'property_id'],
    ['property_id=', 'property_id'],
    ['property_id=abc', 'property_id'],
    ['property_id=1.5', 'property_id'],
    ['property_id=1%20OR%201=1', 'property_id'],
    ['property_id=99999999999999999999999', 'property_id'],
    ['property_id=1&from=2026-13-01', 'from'],
    ['property_id=1&from=2026-02-30', 'from'],
    ['property_id=1&to=yesterday', 'to'],
    ['property_id=1&from=2026-06-10%27;--', 'from'],
    ['property_id=1&from=2026-06-10&to=2026-06-01', 'from'],
    ['property_id=1&dir=up', 'dir'],
    ['property_id=1&dir=', 'dir'],
    ['property_id=1&limit=0', 'limit'],
    ['property_id=1&limit=501', 'limit'],
    ['property_id=1&limit=abc', 'limit'],
    ['property_id=1&limit=1.5', 'limit'],
    ['property_id=1&limit=1e2', 'limit'],
  ])('GET /gsc/queries?%s → 422 VALIDATION_ERROR naming %s', async (qs, field) => {
    const res = await get(t, acc, `/api/v1/gsc/queries?${qs}`);
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it('re-posting a row key replaces it (idempotent) and the aggregates follow', async () => {
    const p = await yd.gscProperty(acc.id, 'https://www.ex.com/');
    const r = row({ query: 'idem', clicks: 5, impressions: 50, position: 3 });
    expect(await yd.gscRows(p, [r])).toBe(1);
    await yd.gscRows(p, [r]);
    await yd.gscRows(p, [{ ...r, clicks: 7, impressions: 70 }]);
    const res = await get(t, acc, `/api/v1/gsc/queries?property_id=${p}`);
    expect(res.body.data.rows).toEqual([
      { key: 'idem', clicks: 7, impressions: 70, ctr: 10, position: 3 },
    ]);
    expect(res.body.data.total_rows).toBe(1);
    const n = await t.db.query(`SELECT count(*)::int AS n FROM gsc_rows WHERE property_id = $1`, [
      p,
    ]);
    expect(n[0].n).toBe(1);
  });

  describe('periods spanning whole months (monthly rollups + daily edges)', () => {
    let mp: number;
    const q = (from: string, to: string, extra = '') =>
      get(
        t,
        acc,
        `/api/v1/gsc/queries?property_id=${mp}&from=${from}&to=${to}&sort=key&dir=asc${extra}`,
      );
    const keys = (res: { body: { data: { rows: Array<{ key: string; clicks: number }> } } }) =>
      res.body.data.rows.map((r) => `${r.key}:${r.clicks}`);

    beforeAll(async () => {
      mp = await yd.gscProperty(acc.id, 'sc-domain:months.com');
      await yd.gscRows(mp, [
        row({ date: '2026-03-20', query: 'a', clicks: 1 }),
        row({ date: '2026-04-01', query: 'a', clicks: 2 }),
        row({ date: '2026-04-15', query: 'b', clicks: 4 }),
        row({ date: '2026-04-30', query: 'a', clicks: 8, page: 'https://ex.com/z' }),
        row({ date: '2026-05-10', query: 'b', clicks: 16 }),
        row({ date: '2026-06-02', query: 'c', clicks: 32 }),
      ]);
    });

    it('every day of the period is counted exactly once, whether it falls in a whole month or an edge', async () => {
      expect(keys(await q('2026-03-18', '2026-06-15'))).toEqual(['a:11', 'b:20', 'c:32']);
      expect(keys(await q('2026-04-01', '2026-04-30'))).toEqual(['a:10', 'b:4']);
      expect(keys(await q('2026-04-02', '2026-05-31'))).toEqual(['a:8', 'b:20']);
      expect(keys(await q('2026-03-21', '2026-04-30'))).toEqual(['a:10', 'b:4']);
      expect(keys(await q('2026-04-01', '2026-06-01'))).toEqual(['a:10', 'b:20']);
      const page = await q('2026-03-01', '2026-06-30', '&dim=page');
      expect(keys(page)).toEqual(['https://ex.com/a:55', 'https://ex.com/z:8']);
      expect(page.body.data.totals.clicks).toBe(63);
    });

    it('re-posting a day inside a whole month updates the monthly figures', async () => {
      await yd.gscRows(mp, [row({ date: '2026-04-15', query: 'b', clicks: 100 })]);
      expect(keys(await q('2026-04-01', '2026-05-31'))).toEqual(['a:10', 'b:116']);
      expect((await q('2026-04-01', '2026-05-31')).body.data.totals.clicks).toBe(126);
    });
  });
});
