import request from 'supertest';
import { AdminClient, TestAccount } from '../helpers/fixtures';
import { createTestApp, TestApp } from '../helpers/test-app';
import { GENEROUS, YourDataAdmin, get, scanBody } from './your-data-fixtures';

describe('your-data ingestion (docs/your-data.md, "Ingestion (admin)") and the monthly cap', () => {
  let t: TestApp;
  let admin: AdminClient;
  let yd: YourDataAdmin;
  let acc: TestAccount;

  beforeAll(async () => {
    t = await createTestApp({ now: '2026-06-15T12:00:00Z' });
    admin = new AdminClient(t.url);
    yd = new YourDataAdmin(admin);
    acc = await admin.account('pro', GENEROUS);
  });
  afterAll(() => t.close());

  const gscRow = (i: number, over: Record<string, unknown> = {}) => ({
    date: '2026-06-10',
    query: `q${i}`,
    page: 'https://ex.com/',
    country: 'usa',
    device: 'desktop',
    clicks: 1,
    impressions: 10,
    position: 3,
    ...over,
  });

  it('creates answer 201 with the id; re-posting the natural key answers 200 with the same id (no duplicate)', async () => {
    const a = await admin.post(`/accounts/${acc.id}/rank-projects`, {
      domain: 'Idem.com',
      name: 'One',
    });
    expect(a.status).toBe(201);
    expect(a.body.data).toMatchObject({ domain: 'idem.com', name: 'One' });
    const b = await admin.post(`/accounts/${acc.id}/rank-projects`, {
      domain: 'idem.com',
      name: 'Renamed',
    });
    expect(b.status).toBe(200);
    expect(b.body.data).toMatchObject({ id: a.body.data.id, name: 'Renamed' });
    const k1 = await admin.post(`/rank-projects/${a.body.data.id}/keywords`, {
      keyword: 'x',
      country: 'us',
      language: 'en',
      device: 'desktop',
      difficulty: 10,
    });
    expect(k1.status).toBe(201);
    expect(k1.body.data).toMatchObject({
      keyword: 'x',
      country: 'US',
      status: 'active',
      difficulty: 10,
    });
    const k2 = await admin.post(`/rank-projects/${a.body.data.id}/keywords`, {
      keyword: 'x',
      country: 'US',
      language: 'en',
      device: 'desktop',
      difficulty: 20,
    });
    expect(k2.status).toBe(200);
    expect(k2.body.data).toMatchObject({ id: k1.body.data.id, difficulty: 20 });
    const g1 = await admin.post(`/accounts/${acc.id}/gsc-properties`, {
      property_uri: 'sc-domain:idem.com',
      display_name: 'I',
      google_email: 'a@b.co',
    });
    const g2 = await admin.post(`/accounts/${acc.id}/gsc-properties`, {
      property_uri: 'sc-domain:idem.com',
      display_name: 'I2',
      google_email: 'a@b.co',
    });
    expect([g1.status, g2.status]).toEqual([201, 200]);
    expect(g2.body.data.id).toBe(g1.body.data.id);
    const p1 = await admin.post(`/accounts/${acc.id}/ai-visibility-projects`, {
      domain: 'idem.com',
      brand_name: 'I',
      target_country: 'US',
      target_language: 'en',
      ai_engine: 'gemini',
      tracking_frequency: 'daily',
    });
    expect(p1.status).toBe(201);
    expect(p1.body.data).toMatchObject({
      id: expect.any(Number),
      domain: 'idem.com',
      ai_engine: 'gemini',
      status: 'active',
    });
  });

  it('re-posting a check date replaces it (one row per keyword per date)', async () => {
    const p = await yd.rankProject(acc.id, 'checks.com');
    const kw = await yd.keyword(p, 'k');
    expect(
      await yd.checks(kw, [
        { check_date: '2026-06-14', position: 4 },
        { check_date: '2026-06-15', position: 5 },
      ]),
    ).toBe(2);
    expect(await yd.checks(kw, [{ check_date: '2026-06-15', position: null }])).toBe(1);
    // within one batch the last entry of a date wins
    expect(
      await yd.checks(kw, [
        { check_date: '2026-06-14', position: 40 },
        { check_date: '2026-06-14', position: 6 },
      ]),
    ).toBe(1);
    const res = await get(t, acc, `/api/v1/rank/history?keyword_id=${kw}`);
    expect(res.body.data.history.map((h: { position: number | null }) => h.position)).toEqual([
      null,
      6,
    ]);
  });

  it('unknown account, project, keyword or property ids → 404 NOT_FOUND', async () => {
    const cases: Array<[string, unknown]> = [
      ['/accounts/999999/rank-projects', { domain: 'a.com', name: 'A' }],
      [
        '/rank-projects/999999/keywords',
        { keyword: 'k', country: 'US', language: 'en', device: 'desktop' },
      ],
      ['/tracked-keywords/999999/checks', { checks: [{ check_date: '2026-06-01', position: 1 }] }],
      [
        '/accounts/999999/gsc-properties',
        { property_uri: 'sc-domain:a.com', display_name: 'A', google_email: 'a@b.co' },
      ],
      ['/gsc-properties/999999/rows', { rows: [gscRow(1)] }],
      [
        '/accounts/999999/ai-visibility-projects',
        {
          domain: 'a.com',
          brand_name: 'A',
          target_country: 'US',
          target_language: 'en',
          ai_engine: 'x',
          tracking_frequency: 'daily',
        },
      ],
      ['/ai-visibility-projects/999999/scans', scanBody('2026-06-01')],
      ['/gsc-properties/abc/rows', { rows: [gscRow(1)] }],
    ];
    for (const [path, body] of cases) {
      const res = await admin.post(path, body);
      expect([path, res.status, res.body.error?.code]).toEqual([path, 404, 'NOT_FOUND']);
    }
  });

  it('admin ingestion needs the admin token (a customer key is 401)', async () => {
    const res = await request(t.url)
      .post(`/admin/v1/accounts/${acc.id}/rank-projects`)
      .set({ Authorization: `Bearer ${acc.key}` })
      .send({ domain: 'a.com', name: 'A' });
    expect(res.status).toBe(401);
  });

  it.each([
    ['rank project without name', 'rank-project', { domain: 'a.com' }, 'name'],
    [
      'rank project with a bad domain',
      'rank-project',
      { domain: "a.com'; DROP TABLE rank_projects;--", name: 'A' },
      'domain',
    ],
    [
      'keyword with a bad device',
      'keyword',
      { keyword: 'k', country: 'US', language: 'en', device: 'watch' },
      'device',
    ],
    [
      'keyword with difficulty 101',
      'keyword',
      { keyword: 'k', country: 'US', language: 'en', device: 'desktop', difficulty: 101 },
      'difficulty',
    ],
    [
      'keyword with a 3-letter country',
      'keyword',
      { keyword: 'k', country: 'USA', language: 'en', device: 'desktop' },
      'country',
    ],
    [
      'keyword too long',
      'keyword',
      { keyword: 'k'.repeat(201), country: 'US', language: 'en', device: 'desktop' },
      'keyword',
    ],
    [
      'check without position',
      'checks',
      { checks: [{ check_date: '2026-06-01' }] },
      'checks.0.position',
    ],
    [
      'check with position 0',
      'checks',
      { checks: [{ check_date: '2026-06-01', position: 0 }] },
      'checks.0.position',
    ],
    [
      'check with position 1.5',
      'checks',
      { checks: [{ check_date: '2026-06-01', position: 1.5 }] },
      'checks.0.position',
    ],
    [
      'check with position "3"',
      'checks',
      { checks: [{ check_date: '2026-06-01', position: '3' }] },
      'checks.0.position',
    ],
    [
      'check with a bad date',
      'checks',
      { checks: [{ check_date: '2026-02-30', position: 3 }] },
      'checks.0.check_date',
    ],
    ['checks not an array', 'checks', { checks: 'all' }, 'checks'],
    ['empty checks', 'checks', { checks: [] }, 'checks'],
    [
      'property with a bad e-mail',
      'property',
      { property_uri: 'sc-domain:a.com', display_name: 'A', google_email: 'nope' },
      'google_email',
    ],
    [
      'property with a bad last_synced_at',
      'property',
      {
        property_uri: 'sc-domain:a.com',
        display_name: 'A',
        google_email: 'a@b.co',
        last_synced_at: '2026-06-01T00:00:00Z',
      },
      'last_synced_at',
    ],
    [
      'gsc row with negative clicks',
      'rows',
      { rows: [gscRow(1, { clicks: -1 })] },
      'rows.0.clicks',
    ],
    [
      'gsc row with huge impressions',
      'rows',
      { rows: [gscRow(1, { impressions: 1e20 })] },
      'rows.0.impressions',
    ],
    ['gsc row with position 0', 'rows', { rows: [gscRow(1, { position: 0 })] }, 'rows.0.position'],
    ['gsc row without query', 'rows', { rows: [gscRow(1, { query: undefined })] }, 'rows.0.query'],
    [
      'scan without competitors',
      'scan',
      { ...scanBody('2026-06-01'), competitors: undefined },
      'competitors',
    ],
    [
      'scan with visibility_score null',
      'scan',
      scanBody('2026-06-01', { visibility_score: null }),
      'visibility_score',
    ],
    [
      'scan with mention_rate 101',
      'scan',
      scanBody('2026-06-01', { mention_rate: 101 }),
      'mention_rate',
    ],
    [
      'scan with a bad competitor',
      'scan',
      scanBody('2026-06-01', {
        competitors: [
          {
            competitor_name: 'R',
            competitor_domain: 'r.com',
            mention_count: -2,
            visibility_score: 1,
            avg_position: 2,
          },
        ],
      }),
      'competitors.0.mention_count',
    ],
    [
      'scan with a duplicate competitor',
      'scan',
      scanBody('2026-06-01', {
        competitors: [1, 2].map(() => ({
          competitor_name: 'R',
          competitor_domain: 'r.com',
          mention_count: 2,
          visibility_score: 1,
          avg_position: 2,
        })),
      }),
      'competitors.1.competitor_domain',
    ],
  ])('%s → 422 VALIDATION_ERROR naming the field', async (_name, kind, body, field) => {
    const p = await yd.rankProject(acc.id, 'val.com');
    const kw = await yd.keyword(p, 'v');
    const prop = await yd.gscProperty(acc.id, 'sc-domain:val.com');
    const ai = await yd.aiProject(acc.id, 'val.com');
    const path = {
      'rank-project': `/accounts/${acc.id}/rank-projects`,
      keyword: `/rank-projects/${p}/keywords`,
      checks: `/tracked-keywords/${kw}/checks`,
      property: `/accounts/${acc.id}/gsc-properties`,
      rows: `/gsc-properties/${prop}/rows`,
      scan: `/ai-visibility-projects/${ai}/scans`,
    }[kind]!;
    const res = await admin.post(path, body);
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it('a batch is stored whole or not at all: one invalid row rejects the batch', async () => {
    const prop = await yd.gscProperty(acc.id, 'sc-domain:atomic.com');
    const res = await admin.post(`/gsc-properties/${prop}/rows`, {
      rows: [gscRow(1), gscRow(2), gscRow(3, { device: 'fridge' })],
    });
    expect(res.status).toBe(422);
    const n = await t.db.query(`SELECT count(*)::int AS n FROM gsc_rows WHERE property_id = $1`, [
      prop,
    ]);
    expect(n[0].n).toBe(0);
  });

  it('concurrent batches for one property keep the rollups consistent with the facts', async () => {
    const prop = await yd.gscProperty(acc.id, 'sc-domain:concurrent.com');
    await Promise.all(
      [0, 1, 2, 3].map((b) =>
        yd.gscRows(
          prop,
          Array.from({ length: 50 }, (_, i) =>
            gscRow(b * 50 + i, { date: i % 2 ? '2026-06-01' : '2026-06-02', clicks: 2 }),
          ),
        ),
      ),
    );
    const res = await get(
      t,
      acc,
      `/api/v1/gsc/queries?property_id=${prop}&from=2026-05-01&to=2026-06-15`,
    );
    expect(res.body.data.total_rows).toBe(200);
    expect(res.body.data.totals).toMatchObject({ clicks: 400, impressions: 2000 });
  });

  it('after inserts, replacements and zeroed rows, the daily and monthly rollups equal a fresh aggregation of the facts', async () => {
    const prop = await yd.gscProperty(acc.id, 'sc-domain:invariant.com');
    const mk = (i: number, over: Record<string, unknown> = {}) =>
      gscRow(i % 7, {
        date: ['2026-04-30', '2026-05-01', '2026-05-31', '2026-06-01'][i % 4],
        page: `https://ex.com/${i % 3}`,
        device: ['desktop', 'mobile', 'tablet'][i % 3],
        country: i % 2 ? 'usa' : 'gbr',
        search_appearance: i % 5 === 0 ? 'VIDEO' : '',
        clicks: i % 9,
        impressions: 10 + i,
        position: 1 + (i % 13) / 2,
        ...over,
      });
    await yd.gscRows(
      prop,
      Array.from({ length: 120 }, (_, i) => mk(i)),
    );
    await yd.gscRows(
      prop,
      Array.from({ length: 60 }, (_, i) =>
        mk(i * 2, { clicks: 3, impressions: 40, position: 2.25 }),
      ),
    );
    await yd.gscRows(
      prop,
      Array.from({ length: 20 }, (_, i) => mk(i * 3, { clicks: 0, impressions: 0 })),
    );
    const diff = await t.db.query(
      `WITH fresh AS (
         SELECT date,
                CASE WHEN GROUPING(query) = 0 THEN 'query' WHEN GROUPING(page) = 0 THEN 'page'
                     WHEN GROUPING(country) = 0 THEN 'country' WHEN GROUPING(device) = 0 THEN 'device'
                     WHEN GROUPING(search_appearance) = 0 THEN 'searchAppearance' ELSE 'date' END AS dim,
                COALESCE(query, page, country, device, search_appearance, to_char(date, 'YYYY-MM-DD')) AS key,
                sum(clicks) AS c, sum(impressions) AS i, sum(position * impressions) AS p
         FROM gsc_rows WHERE property_id = $1
         GROUP BY date, GROUPING SETS ((query), (page), (country), (device), (search_appearance), ())
       ), f AS (SELECT * FROM fresh WHERE NOT (dim = 'searchAppearance' AND key = ''))
       SELECT
         (SELECT count(*) FROM f FULL JOIN (SELECT * FROM gsc_daily_rollups WHERE property_id = $1) r
            ON r.dim = f.dim AND r.date = f.date AND r.key = f.key
          WHERE r.key IS NULL OR f.key IS NULL OR r.clicks <> f.c OR r.impressions <> f.i
             OR abs(r.position_weighted - f.p) > 1e-6)::int AS daily_diff,
         (SELECT count(*) FROM (SELECT dim, date_trunc('month', date)::date AS month, key, sum(c) c, sum(i) i, sum(p) p
                                FROM f WHERE dim <> 'date' GROUP BY 1, 2, 3) fm
            FULL JOIN (SELECT * FROM gsc_monthly_rollups WHERE property_id = $1) r
            ON r.dim = fm.dim AND r.month = fm.month AND r.key = fm.key
          WHERE r.key IS NULL OR fm.key IS NULL OR r.clicks <> fm.c OR r.impressions <> fm.i
             OR abs(r.position_weighted - fm.p) > 1e-6)::int AS monthly_diff,
         (SELECT count(*) FROM gsc_daily_rollups WHERE property_id = $1)::int AS daily_rows`,
      [prop],
    );
    expect(diff[0]).toMatchObject({ daily_diff: 0, monthly_diff: 0 });
    expect(diff[0].daily_rows).toBeGreaterThan(20);
  });

  it('a batch holds up to 10,000 rows; 10,001 → 422 with a clear message', async () => {
    const prop = await yd.gscProperty(acc.id, 'sc-domain:big.com');
    const rows = Array.from({ length: 10_000 }, (_, i) =>
      gscRow(i, { date: i % 2 ? '2026-06-10' : '2026-06-11' }),
    );
    expect(await yd.gscRows(prop, rows)).toBe(10_000);
    const res = await get(t, acc, `/api/v1/gsc/queries?property_id=${prop}&limit=5`);
    expect(res.body.data.total_rows).toBe(10_000);
    expect(res.body.data.totals).toMatchObject({ clicks: 10_000, impressions: 100_000 });
    const tooBig = await admin.post(`/gsc-properties/${prop}/rows`, {
      rows: [...rows, gscRow(10_000)],
    });
    expect(tooBig.status).toBe(422);
    expect(tooBig.body.error.message).toMatch(/at most 10000 rows/);
  });

  it('your-data routes are served (and counted) past the monthly cap; other routes are refused', async () => {
    const capped = await admin.account('pro', { ...GENEROUS, api_calls_per_month: 2 });
    const p = await yd.rankProject(capped.id, 'cap.com');
    const kw = await yd.keyword(p, 'cap');
    const prop = await yd.gscProperty(capped.id, 'sc-domain:cap.com');
    const ai = await yd.aiProject(capped.id, 'cap.com');
    for (let i = 0; i < 3; i++) await get(t, capped, '/api/v1/rank/keywords');
    expect((await get(t, capped, '/api/v1/usage')).status).toBe(429);
    for (const path of [
      '/api/v1/rank/keywords',
      `/api/v1/rank/history?keyword_id=${kw}`,
      '/api/v1/gsc/properties',
      `/api/v1/gsc/queries?property_id=${prop}`,
      '/api/v1/ai-visibility/projects',
      `/api/v1/ai-visibility/share-of-voice?project_id=${ai}`,
    ]) {
      const res = await get(t, capped, path);
      expect([path, res.status]).toEqual([path, 200]);
    }
    const used = await admin.get(`/accounts/${capped.id}`);
    expect(used.body.data.usage.api_calls_per_month).toBeGreaterThanOrEqual(9);
  });

  it('your-data routes need an API key (401) and a plan with API access (403)', async () => {
    expect((await t.http().get('/api/v1/gsc/properties')).status).toBe(401);
    const starter = await admin.account('starter');
    expect((await get(t, starter, '/api/v1/rank/keywords')).status).toBe(403);
  });
});
