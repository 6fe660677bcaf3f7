import { AdminClient, TestAccount } from '../helpers/fixtures';
import { createTestApp, TestApp } from '../helpers/test-app';
import { GENEROUS, YourDataAdmin, get } from './your-data-fixtures';

// "Today" for every rank rule below: 2026-06-15 (UTC) on the injected clock.
describe('rank tracking: GET /rank/keywords and /rank/history (spec: Tracked keyword, Position history)', () => {
  let t: TestApp;
  let yd: YourDataAdmin;
  let acc: TestAccount;
  let other: TestAccount;
  let projectA: number;
  let projectB: number;
  let kwMoved: number;
  let kwNever: number;
  let kwUnranked: number;
  let kwB: number;
  let otherProject: number;
  let otherKw: number;

  beforeAll(async () => {
    t = await createTestApp({ now: '2026-06-15T09:30:00Z' });
    const admin = new AdminClient(t.url);
    yd = new YourDataAdmin(admin);
    acc = await admin.account('pro', GENEROUS);
    other = await admin.account('pro', GENEROUS);
    projectA = await yd.rankProject(acc.id, 'alpha.com', 'Alpha');
    projectB = await yd.rankProject(acc.id, 'beta.com', 'Beta');
    kwMoved = await yd.keyword(projectA, 'running shoes', {
      difficulty: 55,
      search_volume: 12000,
      cpc: 1.25,
    });
    kwNever = await yd.keyword(projectA, 'never checked', {
      country: 'GB',
      language: 'en',
      device: 'mobile',
    });
    kwUnranked = await yd.keyword(projectA, 'dropped out');
    kwB = await yd.keyword(projectB, 'beta keyword', { country: 'de', language: 'de' });
    await yd.checks(kwMoved, [
      {
        check_date: '2026-06-13',
        position: 8,
        landing_page: 'https://alpha.com/old',
        gsc_clicks: 3,
      },
      {
        check_date: '2026-06-14',
        position: 3,
        landing_page: 'https://alpha.com/shoes',
        gsc_clicks: 40,
        gsc_impressions: 900,
        gsc_ctr: 4.44,
        gsc_average_position: 3.4,
        featured_snippet: true,
        local_pack: false,
        ai_overview: true,
      },
    ]);
    await yd.checks(kwUnranked, [
      { check_date: '2026-06-13', position: 9 },
      { check_date: '2026-06-14', position: null },
    ]);
    await yd.checks(kwB, [{ check_date: '2026-06-14', position: 12 }]);
    otherProject = await yd.rankProject(other.id, 'gamma.com', 'Gamma');
    otherKw = await yd.keyword(otherProject, 'not yours');
    await yd.checks(otherKw, [{ check_date: '2026-06-14', position: 1 }]);
  });
  afterAll(() => t.close());

  const byId = (rows: Array<{ keyword_id: number }>, id: number) =>
    rows.find((r) => r.keyword_id === id)!;

  it('lists the account’s keywords with the spec fields, ordered by project id then keyword id', async () => {
    const res = await get(t, acc, '/api/v1/rank/keywords');
    expect(res.status).toBe(200);
    const ids = res.body.data.keywords.map((k: { keyword_id: number }) => k.keyword_id);
    expect(ids).toEqual([kwMoved, kwNever, kwUnranked, kwB]);
    expect(res.body.data.count).toBe(4);
    expect(res.body.meta).toMatchObject({ project_id: null, limit: 100 });
    expect(byId(res.body.data.keywords, kwMoved)).toEqual({
      keyword_id: kwMoved,
      keyword: 'running shoes',
      difficulty: 55,
      search_volume: 12000,
      cpc: 1.25,
      country: 'US',
      language: 'en',
      device: 'desktop',
      status: 'active',
      project_id: projectA,
      project_domain: 'alpha.com',
      project_name: 'Alpha',
      last_checked: '2026-06-14',
      current_position: 3,
      previous_position: 8,
      position_change: 5,
      landing_page: 'https://alpha.com/shoes',
      gsc_clicks: 40,
      gsc_impressions: 900,
      gsc_ctr: 4.44,
      local_pack: false,
      featured_snippet: true,
      ai_overview: true,
    });
  });

  it('a never-checked keyword has null (never 0) latest-position fields, but country/language/device', async () => {
    const res = await get(t, acc, '/api/v1/rank/keywords');
    const k = byId(res.body.data.keywords, kwNever) as unknown as Record<string, unknown>;
    for (const f of [
      'last_checked',
      'current_position',
      'previous_position',
      'position_change',
      'landing_page',
      'gsc_clicks',
      'gsc_impressions',
      'gsc_ctr',
      'local_pack',
      'featured_snippet',
      'ai_overview',
    ]) {
      expect(k[f]).toBeNull();
    }
    expect(k).toMatchObject({ country: 'GB', language: 'en', device: 'mobile' });
    for (const row of res.body.data.keywords) {
      expect(typeof row.country).toBe('string');
      expect(typeof row.language).toBe('string');
      expect(typeof row.device).toBe('string');
    }
  });

  it('position_change is previous − current (positive = up) and null when the latest check is unranked', async () => {
    const res = await get(t, acc, '/api/v1/rank/keywords');
    expect(byId(res.body.data.keywords, kwUnranked)).toMatchObject({
      current_position: null,
      previous_position: 9,
      position_change: null,
      last_checked: '2026-06-14',
    });
    expect(byId(res.body.data.keywords, kwB)).toMatchObject({
      previous_position: null,
      position_change: null,
    });
    // a keyword that dropped: 12 → 19 gives −7
    await yd.checks(kwB, [{ check_date: '2026-06-15', position: 19 }]);
    const again = await get(t, acc, '/api/v1/rank/keywords');
    expect(byId(again.body.data.keywords, kwB)).toMatchObject({
      previous_position: 12,
      current_position: 19,
      position_change: -7,
    });
  });

  it('project_id restricts to one project and is echoed; another account’s project is 404', async () => {
    const res = await get(t, acc, `/api/v1/rank/keywords?project_id=${projectB}`);
    expect(res.status).toBe(200);
    expect(res.body.data.keywords.map((k: { keyword_id: number }) => k.keyword_id)).toEqual([kwB]);
    expect(res.body.meta.project_id).toBe(projectB);
    const foreign = await get(t, acc, `/api/v1/rank/keywords?project_id=${otherProject}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('NOT_FOUND');
    expect((await get(t, acc, '/api/v1/rank/keywords?project_id=999999')).status).toBe(404);
  });

  it('limit 1-500 (default 100) caps the rows and is echoed', async () => {
    const res = await get(t, acc, '/api/v1/rank/keywords?limit=2');
    expect(res.body.data.keywords).toHaveLength(2);
    expect(res.body.data.count).toBe(2);
    expect(res.body.meta.limit).toBe(2);
    expect((await get(t, acc, '/api/v1/rank/keywords?limit=500')).status).toBe(200);
  });

  it.each([
    ['limit=0'],
    ['limit=501'],
    ['limit=abc'],
    ['limit=1.5'],
    ['limit='],
    ['limit=1&limit=2'],
    ['limit=99999999999999999999'],
    ['project_id=0'],
    ['project_id=-3'],
    ['project_id=abc'],
    ['project_id=1%20OR%201=1'],
    ['project_id=1;DROP%20TABLE%20rank_checks'],
    ['project_id=99999999999'],
  ])('GET /rank/keywords?%s → 422 VALIDATION_ERROR with details', async (qs) => {
    const res = await get(t, acc, `/api/v1/rank/keywords?${qs}`);
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(Array.isArray(res.body.error.details)).toBe(true);
  });

  describe('GET /rank/history', () => {
    let kwHist: number;
    beforeAll(async () => {
      kwHist = await yd.keyword(projectA, 'history keyword');
      // today 2026-06-15; a check before any window, then the series.
      await yd.checks(kwHist, [
        { check_date: '2026-03-01', position: 50 },
        { check_date: '2026-06-10', position: 20, people_also_ask: true },
        { check_date: '2026-06-11', position: null },
        { check_date: '2026-06-12', position: 7 },
        { check_date: '2026-06-13', position: 15, sitelinks: true, gsc_average_position: 14.2 },
        { check_date: '2026-06-15', position: 9 },
      ]);
    });

    it('history is newest first with previous_position and change; keyword head; meta days_requested/points', async () => {
      const res = await get(t, acc, `/api/v1/rank/history?keyword_id=${kwHist}&days=7`);
      expect(res.status).toBe(200);
      expect(res.body.data.keyword).toEqual({
        id: kwHist,
        keyword: 'history keyword',
        project_id: projectA,
        domain: 'alpha.com',
        project: 'Alpha',
      });
      const h = res.body.data.history;
      expect(h.map((e: { check_date: string }) => e.check_date)).toEqual([
        '2026-06-15',
        '2026-06-13',
        '2026-06-12',
        '2026-06-11',
        '2026-06-10',
      ]);
      expect(h[0]).toMatchObject({ position: 9, previous_position: 15, change: 6 });
      expect(h[1]).toMatchObject({
        position: 15,
        previous_position: 7,
        change: -8,
        sitelinks: true,
        gsc_average_position: 14.2,
      });
      expect(h[3]).toMatchObject({ position: null, previous_position: 20, change: null });
      // the oldest point's previous_position comes from the check before the window
      expect(h[4]).toMatchObject({
        position: 20,
        previous_position: 50,
        change: 30,
        people_also_ask: true,
      });
      for (const f of [
        'featured_snippet',
        'ai_overview',
        'people_also_ask',
        'local_pack',
        'images',
        'videos',
        'shopping',
        'knowledge_graph',
        'sitelinks',
        'landing_page',
        'gsc_clicks',
        'gsc_impressions',
        'gsc_ctr',
      ]) {
        expect(h[0]).toHaveProperty(f);
      }
      expect(res.body.meta).toMatchObject({ days_requested: 7, points: 5 });
    });

    it('trend: first = oldest point, latest = newest, best = lowest, worst = highest, ignoring unranked', async () => {
      const res = await get(t, acc, `/api/v1/rank/history?keyword_id=${kwHist}&days=7`);
      expect(res.body.data.trend).toEqual({ first: 20, latest: 9, best: 7, worst: 20 });
    });

    it('the window is the last `days` days by the injected clock (days=1 is today only)', async () => {
      const one = await get(t, acc, `/api/v1/rank/history?keyword_id=${kwHist}&days=1`);
      expect(one.body.data.history.map((e: { check_date: string }) => e.check_date)).toEqual([
        '2026-06-15',
      ]);
      expect(one.body.meta.points).toBe(1);
      const def = await get(t, acc, `/api/v1/rank/history?keyword_id=${kwHist}`);
      expect(def.body.meta.days_requested).toBe(90);
      expect(def.body.meta.points).toBe(5); // 2026-03-01 is 106 days back
      const year = await get(t, acc, `/api/v1/rank/history?keyword_id=${kwHist}&days=365`);
      expect(year.body.meta.points).toBe(6);
      expect(year.body.data.trend).toEqual({ first: 50, latest: 9, best: 7, worst: 50 });
      t.clock.set('2026-06-25T00:00:00Z');
      try {
        const later = await get(t, acc, `/api/v1/rank/history?keyword_id=${kwHist}&days=7`);
        expect(later.body.meta.points).toBe(0);
        expect(later.body.data.trend).toEqual({
          first: null,
          latest: null,
          best: null,
          worst: null,
        });
      } finally {
        t.clock.set('2026-06-15T09:30:00Z');
      }
    });

    it('best and worst are null when the keyword never ranked in the window; first/latest may be null', async () => {
      const kw = await yd.keyword(projectA, 'never ranked');
      await yd.checks(kw, [
        { check_date: '2026-06-14', position: null },
        { check_date: '2026-06-15', position: null },
      ]);
      const res = await get(t, acc, `/api/v1/rank/history?keyword_id=${kw}&days=30`);
      expect(res.body.data.trend).toEqual({ first: null, latest: null, best: null, worst: null });
      expect(res.body.meta.points).toBe(2);
    });

    it('a keyword not owned (or absent) is 404 NOT_FOUND', async () => {
      const res = await get(t, acc, `/api/v1/rank/history?keyword_id=${otherKw}`);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
      expect((await get(t, acc, '/api/v1/rank/history?keyword_id=2147483647')).status).toBe(404);
    });

    it.each([
      [''],
      ['keyword_id='],
      ['keyword_id=abc'],
      ['keyword_id=1.5'],
      ['keyword_id=0'],
      ['keyword_id=1%27%20OR%20%271%27=%271'],
      ['keyword_id=1&days=0'],
      ['keyword_id=1&days=366'],
      ['keyword_id=1&days=7.5'],
      ['keyword_id=1&days=1e3'],
      ['keyword_id=1&days=9999999999999999999999'],
    ])('GET /rank/history?%s → 422 VALIDATION_ERROR', async (qs) => {
      const res = await get(t, acc, `/api/v1/rank/history?${qs}`);
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    });
  });
});
