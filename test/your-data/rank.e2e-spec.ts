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
    ['offset=-1'],
    ['offset=abc'],
    ['offset=1.5'],
    ['offset='],
    ['offset=1&offset=2'],
    ['offset=2147483648'],
    ['offset=99999999999999999999'],
    ['offset=1e3'],
    ['offset=0x10'],
    ['offset=1%20OR%201=1'],
  ])('GET /rank/keywords?%s → 422 VALIDATION_ERROR with details', async (qs) => {
    const res = await get(t, acc, `/api/v1/rank/keywords?${qs}`);
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(Array.isArray(res.body.error.details)).toBe(true);
  });

  it('one message per field: a bad limit and a bad offset give one detail each', async () => {
    const res = await get(t, acc, '/api/v1/rank/keywords?limit=0&offset=-1');
    expect(res.status).toBe(422);
    expect(res.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'limit',
      'offset',
    ]);
    const offset = await get(t, acc, '/api/v1/rank/keywords?offset=-1');
    expect(offset.body.error.details).toEqual([
      { field: 'offset', message: expect.stringMatching(/^offset /) },
    ]);
  });

  it('meta has offset 0, total and next null when everything fits (the spec members unchanged)', async () => {
    const res = await get(t, acc, '/api/v1/rank/keywords');
    expect(res.body.meta).toMatchObject({
      project_id: null,
      limit: 100,
      offset: 0,
      total: 4,
      next: null,
    });
    const two = await get(t, acc, `/api/v1/rank/keywords?limit=2&offset=1&project_id=${projectA}`);
    expect(two.body.data.keywords.map((k: { keyword_id: number }) => k.keyword_id)).toEqual([
      kwNever,
      kwUnranked,
    ]);
    expect(two.body.data.count).toBe(2);
    expect(two.body.meta).toMatchObject({ project_id: projectA, limit: 2, offset: 1, total: 3 });
    expect(two.body.meta.next).toBeNull();
    const first = await get(t, acc, `/api/v1/rank/keywords?limit=2&project_id=${projectA}`);
    expect(first.body.meta.next).toBe(
      `/api/v1/rank/keywords?limit=2&offset=2&project_id=${projectA}`,
    );
  });

  describe('paging (offset, meta.total, meta.next: an extension of the spec)', () => {
    let agency: TestAccount;
    let big: number;
    let small: number;
    /** The account's keyword ids in the answer's order: project id, then keyword id. */
    let all: number[];
    type Page = {
      data: { keywords: Array<{ keyword_id: number; keyword: string }>; count: number };
      meta: { limit: number; offset: number; total: number; next: string | null };
    };
    const page = async (path: string): Promise<Page> => {
      const res = await get(t, agency, path);
      expect(res.status).toBe(200);
      return res.body as Page;
    };

    beforeAll(async () => {
      agency = await new AdminClient(t.url).account('agency', GENEROUS);
      big = await yd.rankProject(agency.id, 'big.example', 'Big');
      small = await yd.rankProject(agency.id, 'small.example', 'Small');
      // 1,200 keywords, one statement per project (the triggers render their JSON). The
      // small project's keywords are made first, so the order (project, then keyword id) is
      // not the keyword id order.
      for (const [project, n] of [
        [small, 300],
        [big, 900],
      ]) {
        await t.db.query(
          `INSERT INTO tracked_keywords (account_id, project_id, keyword, country, language, device)
           SELECT $1, $2, 'kw ' || lpad(g::text, 4, '0'), 'US', 'en', 'desktop'
           FROM generate_series(1, $3::int) g`,
          [agency.id, project, n],
        );
      }
      const rows: Array<{ id: number }> = await t.db.query(
        'SELECT id FROM tracked_keywords WHERE account_id = $1 ORDER BY project_id, id',
        [agency.id],
      );
      all = rows.map((r) => r.id);
      expect(all).toHaveLength(1200);
    });

    it('limit 500 through 1,200 keywords: every keyword once, in order, by following meta.next', async () => {
      const seen: number[] = [];
      const metas: Page['meta'][] = [];
      let path: string | null = '/api/v1/rank/keywords?limit=500';
      while (path !== null) {
        const p: Page = await page(path);
        seen.push(...p.data.keywords.map((k) => k.keyword_id));
        expect(p.data.count).toBe(p.data.keywords.length);
        metas.push(p.meta);
        path = p.meta.next;
      }
      expect(seen).toEqual(all);
      expect(metas).toEqual([
        expect.objectContaining({ limit: 500, offset: 0, total: 1200 }),
        expect.objectContaining({ limit: 500, offset: 500, total: 1200 }),
        expect.objectContaining({ limit: 500, offset: 1000, total: 1200, next: null }),
      ]);
      expect(metas[0].next).toBe('/api/v1/rank/keywords?limit=500&offset=500');
      expect(metas[1].next).toBe('/api/v1/rank/keywords?limit=500&offset=1000');
    });

    it('the last page ends exactly at total: next null; past the end: no keyword, count 0, total', async () => {
      const last = await page('/api/v1/rank/keywords?limit=200&offset=1000');
      expect(last.data.count).toBe(200);
      expect(last.meta.next).toBeNull();
      const before = await page('/api/v1/rank/keywords?limit=200&offset=999');
      expect(before.meta.next).toBe('/api/v1/rank/keywords?limit=200&offset=1199');
      for (const offset of [1200, 1201, 50_000, 2_147_483_647]) {
        const past = await page(`/api/v1/rank/keywords?offset=${offset}`);
        expect(past.data).toEqual({ keywords: [], count: 0 });
        expect(past.meta).toMatchObject({ limit: 100, offset, total: 1200, next: null });
      }
    });

    it('any offset gives the slice of the order; offset with project_id pages that project only', async () => {
      const mid = await page('/api/v1/rank/keywords?limit=7&offset=295');
      expect(mid.data.keywords.map((k) => k.keyword_id)).toEqual(all.slice(295, 302));
      const ids = [];
      let path: string | null = `/api/v1/rank/keywords?project_id=${big}&limit=400&offset=100`;
      const offsets = [];
      while (path !== null) {
        const p: Page = await page(path);
        expect(p.meta.total).toBe(900);
        offsets.push(p.meta.offset);
        ids.push(...p.data.keywords.map((k) => k.keyword_id));
        path = p.meta.next;
      }
      expect(offsets).toEqual([100, 500]);
      expect(big).toBeLessThan(small); // so the big project's keywords come first
      expect(ids).toEqual(all.slice(100, 900));
      const smallLast = await page(`/api/v1/rank/keywords?project_id=${small}&offset=250`);
      expect(smallLast.data.count).toBe(50);
      expect(smallLast.meta).toMatchObject({ total: 300, next: null });
      const smallPast = await page(`/api/v1/rank/keywords?project_id=${small}&offset=300`);
      expect(smallPast.data.count).toBe(0);
      expect(smallPast.meta.total).toBe(300);
    });

    it('an account without keywords: total 0, next null, at offset 0 and past it', async () => {
      expect(
        (await get(t, other, '/api/v1/rank/keywords?project_id=' + otherProject)).body.meta,
      ).toMatchObject({ offset: 0, total: 1, next: null });
      const empty = await new AdminClient(t.url).account('pro', GENEROUS);
      for (const qs of ['', '?offset=0', '?offset=10']) {
        const res = await get(t, empty, `/api/v1/rank/keywords${qs}`);
        expect(res.body.data).toEqual({ keywords: [], count: 0 });
        expect(res.body.meta).toMatchObject({ total: 0, next: null });
      }
    });
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
