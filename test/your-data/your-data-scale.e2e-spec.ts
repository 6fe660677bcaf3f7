import { AppConfig, ManualClock, addDays, plainDate } from '@app/core';
import { GscPartitionRepository, Sql, monthStart } from '@app/database';
import { GscMaintenanceService } from '../../apps/worker/src/gsc-maintenance.service';
import { AdminClient, TestAccount } from '../helpers/fixtures';
import { createTestApp, TestApp } from '../helpers/test-app';
import { GENEROUS, YourDataAdmin, get } from './your-data-fixtures';

/**
 * Your-data at agency scale (migration 1764500000000, docs/your-data.md):
 * - the latest check kept on tracked_keywords gives the same /rank/keywords answers as the
 *   check lookups, for checks posted out of order, re-posted, and dated after "today";
 * - the GSC retention job drops months older than the window (partitions and rollups) and
 *   leaves the answers of in-range queries unchanged.
 */
describe('Your-data at scale: stored latest checks and GSC retention', () => {
  let t: TestApp;
  let yd: YourDataAdmin;
  let acc: TestAccount;

  beforeAll(async () => {
    t = await createTestApp({ now: '2026-06-15T12:00:00Z' });
    const admin = new AdminClient(t.url);
    yd = new YourDataAdmin(admin);
    acc = await admin.account('agency', GENEROUS);
  });
  afterAll(() => t.close());

  /** The reference: the latest check on or before `today` and the one before it, looked up. */
  async function reference(today: string) {
    return t.db.query(
      `SELECT k.id, to_char(c1.check_date, 'YYYY-MM-DD') AS last_checked, c1.position AS current_position,
              c2.position AS previous_position, c1.landing_page, c1.gsc_clicks, c1.gsc_impressions, c1.gsc_ctr,
              c1.local_pack, c1.featured_snippet, c1.ai_overview
       FROM tracked_keywords k
       LEFT JOIN LATERAL (SELECT * FROM rank_checks c WHERE c.keyword_id = k.id AND c.check_date <= $2::date
                          ORDER BY c.check_date DESC LIMIT 1) c1 ON true
       LEFT JOIN LATERAL (SELECT c.position FROM rank_checks c WHERE c.keyword_id = k.id AND c.check_date < c1.check_date
                          ORDER BY c.check_date DESC LIMIT 1) c2 ON true
       WHERE k.account_id = $1 ORDER BY k.project_id, k.id`,
      [acc.id, today],
    ) as Promise<Array<Record<string, unknown>>>;
  }

  async function listed() {
    const res = await get(t, acc, '/api/v1/rank/keywords?limit=500');
    expect(res.status).toBe(200);
    return (res.body.data.keywords as Array<Record<string, unknown>>).map((k) => ({
      id: k.keyword_id,
      last_checked: k.last_checked,
      current_position: k.current_position,
      previous_position: k.previous_position,
      landing_page: k.landing_page,
      gsc_clicks: k.gsc_clicks,
      gsc_impressions: k.gsc_impressions,
      gsc_ctr: k.gsc_ctr,
      local_pack: k.local_pack,
      featured_snippet: k.featured_snippet,
      ai_overview: k.ai_overview,
    }));
  }

  it('/rank/keywords equals the check lookups for out-of-order, re-posted and future checks', async () => {
    const project = await yd.rankProject(acc.id, 'scale.example', 'Scale');
    const check = (check_date: string, position: number | null, extra = {}) => ({
      check_date,
      position,
      landing_page: `https://scale.example/${check_date}`,
      gsc_clicks: 3,
      gsc_impressions: 40,
      gsc_ctr: 7.5,
      local_pack: position === 3,
      ...extra,
    });
    const inOrder = await yd.keyword(project, 'in order');
    await yd.checks(inOrder, [check('2026-06-13', 8), check('2026-06-14', 5)]);
    // Newest first, then an older batch: the stored latest must stay 06-14.
    const outOfOrder = await yd.keyword(project, 'out of order');
    await yd.checks(outOfOrder, [check('2026-06-14', 4)]);
    await yd.checks(outOfOrder, [check('2026-06-12', 9), check('2026-06-10', 12)]);
    // Re-posting the latest date replaces it (position, page and flags).
    const reposted = await yd.keyword(project, 'reposted');
    await yd.checks(reposted, [check('2026-06-11', 20), check('2026-06-15', 18)]);
    await yd.checks(reposted, [
      check('2026-06-15', 3, { landing_page: 'https://scale.example/new' }),
    ]);
    // A check dated after today: today's answer is the check before it; its previous too.
    const ahead = await yd.keyword(project, 'ahead');
    await yd.checks(ahead, [
      check('2026-06-09', 30),
      check('2026-06-12', null),
      check('2026-06-17', 2),
    ]);
    // Only future checks: nothing on or before today.
    const onlyAhead = await yd.keyword(project, 'only ahead');
    await yd.checks(onlyAhead, [check('2026-06-20', 1)]);
    await yd.keyword(project, 'never checked');

    const today = await listed();
    expect(today).toEqual(await reference('2026-06-15'));
    const byId = new Map(today.map((k) => [k.id, k]));
    expect(byId.get(outOfOrder)).toMatchObject({
      last_checked: '2026-06-14',
      current_position: 4,
      previous_position: 9,
    });
    expect(byId.get(reposted)).toMatchObject({
      last_checked: '2026-06-15',
      current_position: 3,
      previous_position: 20,
      landing_page: 'https://scale.example/new',
      local_pack: true,
    });
    expect(byId.get(ahead)).toMatchObject({
      last_checked: '2026-06-12',
      current_position: null,
      previous_position: 30,
    });
    expect(byId.get(onlyAhead)).toMatchObject({ last_checked: null, current_position: null });

    // Two days later the future check of "ahead" is the latest.
    t.clock.set(new Date('2026-06-17T12:00:00Z'));
    try {
      const later = await listed();
      expect(later).toEqual(await reference('2026-06-17'));
      expect(later.find((k) => k.id === ahead)).toMatchObject({
        last_checked: '2026-06-17',
        current_position: 2,
        previous_position: null,
      });
    } finally {
      t.clock.set(new Date('2026-06-15T12:00:00Z'));
    }
  });

  // Dates relative to the real day: a worker process started by another suite of the same
  // run applies the same retention (real clock), so both agree on what is kept.
  describe('GSC retention (worker job)', () => {
    let prop: number;
    const today = plainDate(new Date());
    const keptFrom = monthStart(today, -16);
    const day = (month: string, d: number) => plainDate(addDays(new Date(`${month}T00:00:00Z`), d));
    const lastDropped = day(keptFrom, -1);
    const older = day(monthStart(today, -18), 9);
    const thisMonth = monthStart(today);
    const fact = (date: string, query: string, clicks: number) => ({
      date,
      query,
      page: `https://ret.example/${query}`,
      country: 'usa',
      device: 'desktop',
      clicks,
      impressions: clicks * 10 + 5,
      position: 3.5,
    });
    const inRange = [
      `/api/v1/gsc/queries?dim=query&limit=500&from=${keptFrom}&to=${thisMonth}`,
      `/api/v1/gsc/queries?dim=date&limit=500&from=${keptFrom}&to=${thisMonth}`,
      `/api/v1/gsc/queries?dim=page&limit=500&from=${monthStart(today, -15)}&to=${day(thisMonth, -1)}`,
      `/api/v1/gsc/queries?dim=query&limit=500&from=${day(keptFrom, 3)}&to=${day(monthStart(today, -10), 20)}`,
    ];
    const answers = async () =>
      Promise.all(
        inRange.map(async (q) => {
          const res = await get(t, acc, `${q}&property_id=${prop}`);
          expect(res.status).toBe(200);
          return res.body.data as unknown;
        }),
      );
    const partitions = () => new GscPartitionRepository(t.app.get(Sql));
    const service = () =>
      new GscMaintenanceService(
        {
          ...t.config,
          gscMaintenance: { intervalMs: 60_000, retentionMonths: 16, partitionsAhead: 2 },
        } as AppConfig,
        partitions(),
        new ManualClock(new Date(`${today}T12:00:00Z`)),
      );
    const oldState = async () =>
      (
        await t.db.query(
          `SELECT (SELECT count(*)::int FROM gsc_rows WHERE date < $1::date) AS facts,
                  (SELECT count(*)::int FROM gsc_daily_rollups WHERE date < $1::date) AS daily,
                  (SELECT count(*)::int FROM gsc_monthly_rollups WHERE month < $1::date) AS monthly`,
          [keptFrom],
        )
      )[0] as unknown;

    beforeAll(async () => {
      prop = await yd.gscProperty(acc.id, 'sc-domain:ret.example');
      await yd.gscRows(prop, [
        fact(older, 'ancient', 7),
        fact(lastDropped, 'old', 5),
        fact(lastDropped, 'kept', 1),
        fact(keptFrom, 'kept', 2),
        fact(day(monthStart(today, -10), 14), 'kept', 3),
        fact(day(monthStart(today, -10), 14), 'middle', 4),
        fact(thisMonth, 'recent', 6),
      ]);
    });

    it('drops months older than 16 months (facts and rollups), keeps the rest, answers unchanged', async () => {
      const before = await answers();
      const keptFacts = await t.db.query(
        `SELECT count(*)::int AS n FROM gsc_rows WHERE property_id = $1 AND date >= $2::date`,
        [prop, keptFrom],
      );
      expect((await oldState()) as { facts: number }).toMatchObject({ facts: 3 });
      const r = await service().runOnce();
      expect(r.keptFrom).toBe(keptFrom);
      expect(r.retention).not.toBeNull();

      const months = await partitions().months();
      expect(months.filter((m) => m < keptFrom)).toEqual([]);
      expect(months).toEqual(
        expect.arrayContaining([thisMonth, monthStart(today, 1), monthStart(today, 2)]),
      );
      expect(await oldState()).toEqual({ facts: 0, daily: 0, monthly: 0 });
      expect(
        await t.db.query(
          `SELECT count(*)::int AS n FROM gsc_rows WHERE property_id = $1 AND date >= $2::date`,
          [prop, keptFrom],
        ),
      ).toEqual(keptFacts);
      expect(await answers()).toEqual(before);

      // The dropped period answers nothing; a second round changes nothing.
      const gone = await get(
        t,
        acc,
        `/api/v1/gsc/queries?property_id=${prop}&from=${older}&to=${lastDropped}`,
      );
      expect(gone.body.data).toMatchObject({ rows: [], total_rows: 0 });
      const again = await service().runOnce();
      expect(again.retention?.dropped ?? []).toEqual([]);
      expect(await answers()).toEqual(before);
    });

    it('a batch for a month without a partition (dropped or far ahead) creates it', async () => {
      const ahead = day(monthStart(today, 14), 4);
      await yd.gscRows(prop, [fact(older, 'back again', 1), fact(ahead, 'far ahead', 2)]);
      const res = await get(
        t,
        acc,
        `/api/v1/gsc/queries?property_id=${prop}&from=${ahead}&to=${ahead}`,
      );
      expect(res.body.data.rows).toEqual([
        expect.objectContaining({ key: 'far ahead', clicks: 2, impressions: 25 }),
      ]);
      expect(await partitions().months()).toEqual(expect.arrayContaining([monthStart(ahead)]));
      // The next round drops the re-created old month again.
      await service().runOnce();
      expect((await partitions().months()).filter((m) => m < keptFrom)).toEqual([]);
      expect(await oldState()).toEqual({ facts: 0, daily: 0, monthly: 0 });
    });
  });
});
