import { getQueueToken } from '@nestjs/bullmq';
import type { TestingModule } from '@nestjs/testing';
import type { Queue } from 'bullmq';
import type Redis from 'ioredis';
import { metricsRegistry } from '@app/core';
import { REDIS } from '@app/redis';
import { GscIngestionRepository } from '@app/database';
import { SearchConsoleError, SearchConsoleRow } from '@app/providers';
import { GscSyncService } from '../../apps/worker/src/gsc-sync/gsc-sync.service';
import { GSC_SYNC_QUEUE } from '../../apps/worker/src/gsc-sync/gsc-sync.queue';
import { GscRequestQuota } from '../../apps/worker/src/gsc-sync/gsc-quota';
import { startWorker } from '../site-audit/site-audit-helpers';
import {
  FakeSearchConsoleSource,
  fakeRows,
  startSyncWorker as startFakeSyncWorker,
} from '../fixtures/fake-search-console-source';
import { AdminClient, TestAccount } from '../helpers/fixtures';
import { createOwnDatabase } from '../helpers/own-database';
import { TestApp, createTestApp } from '../helpers/test-app';
import { GENEROUS, YourDataAdmin, get } from './your-data-fixtures';

// 08:00 UTC is 01:00 in California: the newest final day is 2026-06-13 (lag 2), and with
// GSC_BACKFILL_MONTHS=0 a new property pulls 2026-06-13 down to 2026-06-10 (the re-pull window).
const NOW = '2026-06-15T08:00:00Z';
const HOUR = 3_600_000;

/**
 * The Search Console sync of the worker, for real (PostgreSQL, Redis, the ingestion write
 * path), against a fake SearchConsoleSource bound where the Google client goes: paging at
 * GSC_ROW_LIMIT (10 here), the re-pull window, quota, invalid_grant, a removed site, one
 * property failing while others sync, two workers racing, and the rank rows' figures.
 */
describe('Search Console sync in the worker (fake source)', () => {
  const fake = new FakeSearchConsoleSource();

  let t: TestApp;
  // Its own database and queue prefix: the sync claims every due property of a database.
  let db: { url: string; drop: () => Promise<void> } | undefined;
  const workers: TestingModule[] = [];
  let admin: AdminClient;

  const startSyncWorker = async () => {
    const moduleRef = await startFakeSyncWorker(t.config, t.clock, fake);
    workers.push(moduleRef);
    return moduleRef.get(GscSyncService);
  };
  let sync: GscSyncService;

  beforeAll(async () => {
    db = await createOwnDatabase('gscsync');
    t = await createTestApp({
      now: NOW,
      env: {
        DATABASE_URL: db.url,
        REDIS_PREFIX: `${process.env.REDIS_PREFIX}:gscsync`,
        GSC_BACKFILL_MONTHS: '0',
        GSC_ROW_LIMIT: '10',
      },
    });
    admin = new AdminClient(t.url);
    sync = await startSyncWorker();
  });
  afterAll(async () => {
    for (const w of workers) await w.close();
    await t?.close();
    await db?.drop();
  });

  const connection = async (accountId: number, token = 'rt-ok', email = 'owner@example.com') =>
    (
      await t.db.query(
        `INSERT INTO gsc_connections (account_id, google_email, refresh_token_enc)
         VALUES ($1, $2, $3) RETURNING id`,
        [accountId, email, token],
      )
    )[0].id as number;
  const property = async (accountId: number, uri: string, connectionId: number | null) =>
    (await t.app.get(GscIngestionRepository).addSyncedProperty(
      accountId,
      {
        propertyUri: uri,
        displayName: uri,
        googleEmail: 'owner@example.com',
        connectionId,
        permissionLevel: 'siteOwner',
        isSandbox: connectionId === null,
      },
      t.clock.now(),
    ))!.row.id;
  const state = async (id: number) =>
    (
      await t.db.query(
        `SELECT status, last_sync_status, last_error, backfill_days_total AS total,
                backfill_days_done AS done, next_sync_at, last_synced_at, sync_claimed_until,
                to_char(backfill_from, 'YYYY-MM-DD') AS backfill_from
         FROM gsc_properties WHERE id = $1`,
        [id],
      )
    )[0];
  const factsOf = async (id: number) =>
    (await t.db.query(
      `SELECT to_char(date, 'YYYY-MM-DD') AS date, count(*)::int AS n, sum(clicks)::int AS clicks,
              sum(impressions)::int AS impressions
       FROM gsc_rows WHERE property_id = $1 GROUP BY date ORDER BY date DESC`,
      [id],
    )) as Array<{ date: string; n: number; clicks: number; impressions: number }>;
  const sums = (rows: SearchConsoleRow[]) => ({
    n: rows.length,
    clicks: rows.reduce((s, r) => s + r.clicks, 0),
    impressions: rows.reduce((s, r) => s + r.impressions, 0),
  });
  /** The rollups equal a rebuild from the facts (the sync kept them exact). */
  const expectRollupsExact = async (id: number) => {
    const snapshot = async () =>
      t.db.query(
        `SELECT 'd' AS t, dim, to_char(date, 'YYYY-MM-DD') AS p, key, clicks::text, impressions::text,
                round(position_weighted::numeric, 6)::text AS pw FROM gsc_daily_rollups WHERE property_id = $1
         UNION ALL
         SELECT 'w', dim, to_char(week, 'YYYY-MM-DD'), key, clicks::text, impressions::text,
                round(position_weighted::numeric, 6)::text FROM gsc_weekly_rollups WHERE property_id = $1
         UNION ALL
         SELECT 'm', dim, to_char(month, 'YYYY-MM-DD'), key, clicks::text, impressions::text,
                round(position_weighted::numeric, 6)::text FROM gsc_monthly_rollups WHERE property_id = $1
         ORDER BY 1, 2, 3, 4`,
        [id],
      );
    const before = await snapshot();
    const dates = (await factsOf(id)).map((f) => f.date);
    await t.app.get(GscIngestionRepository).rebuildRollups(id, dates);
    expect(await snapshot()).toEqual(before);
    return before.length;
  };
  const counter = async (name: string) => metricsRegistry.getSingleMetricAsString(name);

  let acc: TestAccount;
  let paged: number;
  const PAGED = 'sc-domain:paging.example';

  it('pulls each day newest first, one request per page of GSC_ROW_LIMIT until a short or empty page, and replaces it with its progress', async () => {
    acc = await admin.account('pro', GENEROUS);
    const conn = await connection(acc.id);
    fake.setDay(PAGED, '2026-06-13', 20); // two full pages, then an empty one
    fake.setDay(PAGED, '2026-06-12', 25); // 10 + 10 + 5
    fake.setDay(PAGED, '2026-06-11', 9); // one short page
    // 2026-06-10: no rows (one empty page)
    paged = await property(acc.id, PAGED, conn);
    expect(await state(paged)).toMatchObject({ last_sync_status: 'pending', total: 0, done: 0 });

    const run = await sync.runDue();
    expect(run).toMatchObject({ claimed: 1, days: 4, rows: 54, failed: 0 });
    expect(fake.requestsOf(PAGED).map((r) => `${r.day}@${r.startRow}/${r.rowLimit}`)).toEqual([
      '2026-06-13@0/10',
      '2026-06-13@10/10',
      '2026-06-13@20/10',
      '2026-06-12@0/10',
      '2026-06-12@10/10',
      '2026-06-12@20/10',
      '2026-06-11@0/10',
      '2026-06-10@0/10',
    ]);
    expect(await factsOf(paged)).toEqual([
      { date: '2026-06-13', ...sums(fake.rowsOf(PAGED, '2026-06-13')) },
      { date: '2026-06-12', ...sums(fake.rowsOf(PAGED, '2026-06-12')) },
      { date: '2026-06-11', ...sums(fake.rowsOf(PAGED, '2026-06-11')) },
    ]);
    const s = await state(paged);
    expect(s).toMatchObject({
      status: 'active',
      last_sync_status: 'ok',
      last_error: null,
      backfill_from: '2026-06-10',
      total: 4,
      done: 4,
      sync_claimed_until: null,
    });
    expect(s.last_synced_at.toISOString()).toBe('2026-06-15T08:00:00.000Z');
    expect(s.next_sync_at.getTime()).toBe(Date.parse(NOW) + HOUR);
    expect(await expectRollupsExact(paged)).toBeGreaterThan(0);

    // The public property row keeps its shape, with the sync's status.
    const props = (await get(t, acc, '/api/v1/gsc/properties')).body.data.properties;
    expect(props).toEqual([
      {
        property_id: paged,
        property_uri: PAGED,
        display_name: PAGED,
        status: 'active',
        last_synced_at: '2026-06-15 08:00:00',
        last_sync_status: 'ok',
        google_email: 'owner@example.com',
        is_sandbox: false,
      },
    ]);
    expect(await counter('gsc_sync_rows_total')).toMatch(/gsc_sync_rows_total \d+/);
    expect(await counter('gsc_backfill_days_remaining')).toMatch(/gsc_backfill_days_remaining 0/);
  });

  it('every interval re-pulls the newest final day and the 3 before it, replacing each day (no double count)', async () => {
    expect(await sync.runDue()).toMatchObject({ claimed: 0 }); // not due before the interval
    // Google revises 2026-06-12: fewer rows, other values; a row it no longer reports goes.
    fake.setDay(PAGED, '2026-06-12', fakeRows(PAGED, '2026-06-12', 7, 3));
    const before = fake.requestsOf(PAGED).length;
    t.clock.advance(HOUR);
    expect(await sync.runDue()).toMatchObject({ claimed: 1, days: 4, failed: 0 });
    expect(
      fake
        .requestsOf(PAGED)
        .slice(before)
        .map((r) => r.day),
    ).toEqual(['2026-06-13', '2026-06-13', '2026-06-13', '2026-06-12', '2026-06-11', '2026-06-10']);
    const facts = await factsOf(paged);
    expect(facts.find((f) => f.date === '2026-06-12')).toEqual({
      date: '2026-06-12',
      ...sums(fake.rowsOf(PAGED, '2026-06-12')),
    });
    expect(facts.find((f) => f.date === '2026-06-13')).toEqual({
      date: '2026-06-13',
      ...sums(fake.rowsOf(PAGED, '2026-06-13')),
    });
    await expectRollupsExact(paged);
    const byDate = await get(
      t,
      acc,
      `/api/v1/gsc/queries?property_id=${paged}&dim=date&from=2026-06-01&to=2026-06-30&limit=10`,
    );
    const all = ['2026-06-13', '2026-06-12', '2026-06-11'].map((d) => sums(fake.rowsOf(PAGED, d)));
    expect(byDate.body.data.totals).toMatchObject({
      clicks: all.reduce((s, x) => s + x.clicks, 0),
      impressions: all.reduce((s, x) => s + x.impressions, 0),
    });

    // A day later (Pacific time) the newest final day is 2026-06-14: the plan's anchor moves.
    fake.setDay(PAGED, '2026-06-14', 5);
    t.clock.advance(24 * HOUR);
    expect(await sync.runDue()).toMatchObject({ claimed: 1, days: 4, failed: 0 });
    expect(await state(paged)).toMatchObject({ last_sync_status: 'ok', total: 5, done: 5 });
    expect((await factsOf(paged))[0]).toMatchObject({ date: '2026-06-14', n: 5 });
    await expectRollupsExact(paged);
  });

  it('a quota answer backs off that property only, a removed site is an error, invalid_grant needs a reconnect; the others sync', async () => {
    const acc2 = await admin.account('pro', GENEROUS);
    const ok = await connection(acc2.id, 'rt-fine', 'fine@example.com');
    const revoked = await connection(acc2.id, 'rt-revoked', 'gone@example.com');
    fake.refusedTokens.add('rt-revoked');
    const QUOTA = 'https://quota.example/';
    const GONE = 'sc-domain:gone.example';
    const FINE = 'sc-domain:fine.example';
    fake.refusals.set(
      QUOTA,
      new SearchConsoleError('quota', 'Rate Limit Exceeded', {
        status: 429,
        reason: 'rateLimitExceeded',
      }),
    );
    fake.refusals.set(
      GONE,
      new SearchConsoleError(
        'not_found',
        "User does not have sufficient permission for site 'sc-domain:gone.example'.",
        { status: 403, reason: 'forbidden' },
      ),
    );
    for (const d of ['2026-06-14', '2026-06-13', '2026-06-12', '2026-06-11']) {
      fake.setDay(FINE, d, 12);
    }
    const quota = await property(acc2.id, QUOTA, ok);
    const gone = await property(acc2.id, GONE, ok);
    const fine = await property(acc2.id, FINE, ok);
    const reauth1 = await property(acc2.id, 'sc-domain:r1.example', revoked);
    const reauth2 = await property(acc2.id, 'sc-domain:r2.example', revoked);
    const now = t.clock.now().getTime();

    // 4 lanes claim one property each (ordered by id); r1's refused token sets r2 to
    // reauth_required too, so r2 is claimed only if a lane got to it first.
    const run = await sync.runDue();
    expect([4, 5]).toContain(run.claimed);
    expect(run.failed).toBe(run.claimed - 1);
    expect(await state(quota)).toMatchObject({
      status: 'active',
      last_sync_status: 'quota_exceeded',
      last_error: 'Rate Limit Exceeded',
      done: 0,
    });
    expect((await state(quota)).next_sync_at.getTime()).toBe(now + 15 * 60_000);
    expect(await state(gone)).toMatchObject({
      status: 'active',
      last_sync_status: 'error',
      last_error: expect.stringContaining('sufficient permission'),
    });
    expect(await state(fine)).toMatchObject({ last_sync_status: 'ok', total: 4, done: 4 });
    for (const id of [reauth1, reauth2]) {
      expect(await state(id)).toMatchObject({
        status: 'reauth_required',
        last_sync_status: 'reauth_required',
        last_error: expect.stringContaining('invalid_grant'),
        sync_claimed_until: null,
      });
    }
    const conns = await t.db.query(
      `SELECT id, status FROM gsc_connections WHERE account_id = $1 ORDER BY id`,
      [acc2.id],
    );
    expect(conns).toEqual([
      { id: ok, status: 'active' },
      { id: revoked, status: 'reauth_required' },
    ]);
    const requests = await counter('gsc_sync_requests_total');
    for (const result of ['ok', 'quota', 'not_found', 'reauth_required']) {
      expect(requests).toMatch(new RegExp(`gsc_sync_requests_total\\{result="${result}"\\} [1-9]`));
    }

    // After the back-off the quota property syncs; the reauth ones wait for a reconnect.
    fake.refusals.delete(QUOTA);
    fake.setDay(QUOTA, '2026-06-14', 3);
    t.clock.advance(15 * 60_000);
    const later = await sync.runDue();
    expect(later).toMatchObject({ claimed: 1, failed: 0 });
    expect(await state(quota)).toMatchObject({ last_sync_status: 'ok', last_error: null });
    expect(fake.requestsOf('sc-domain:r1.example')).toEqual([]);

    // Reconnected (the connect flow stores a new token and resumes the properties): both sync.
    await t.db.query(
      `UPDATE gsc_connections SET refresh_token_enc = 'rt-new', status = 'active' WHERE id = $1`,
      [revoked],
    );
    expect(
      await t.app.get(GscIngestionRepository).resumeConnectionProperties(revoked, t.clock.now()),
    ).toBe(2);
    expect(await state(reauth1)).toMatchObject({ status: 'active', last_sync_status: 'pending' });
    expect(await sync.runDue()).toMatchObject({ claimed: 2, failed: 0 });
    for (const id of [reauth1, reauth2]) {
      expect(await state(id)).toMatchObject({ status: 'active', last_sync_status: 'ok', done: 4 });
    }
  });

  it("counts every request on its site's and its Google user's per-minute window in Redis, and waits at the limit", async () => {
    const quota = workers[0].get(GscRequestQuota);
    const redis = workers[0].get<Redis>(REDIS);
    const [site, user] = quota.countersOf(PAGED, 'owner@example.com');
    expect(site.limit).toBe(600);
    expect(user.limit).toBe(600);
    // Every page this suite asked of the site so far is on its window (60 s, not yet over).
    expect(Number(await redis.get(site.key))).toBe(fake.requestsOf(PAGED).length);
    expect(await redis.pttl(site.key)).toBeGreaterThan(0);
    // A full window: the next request waits for it to end, then counts on a new one.
    const other = quota.countersOf('sc-domain:full.example', 'someone@example.com');
    await redis.set(other[0].key, String(other[0].limit), 'PX', 800);
    const started = Date.now();
    await quota.take('sc-domain:full.example', 'someone@example.com');
    expect(Date.now() - started).toBeGreaterThanOrEqual(800);
    expect(await redis.get(other[0].key)).toBe('1');
    expect(await redis.get(other[1].key)).toBe('1');
  });

  it('two workers racing never sync the same property or day twice', async () => {
    const acc3 = await admin.account('pro', GENEROUS);
    const conn = await connection(acc3.id, 'rt-race', 'race@example.com');
    const sites = Array.from({ length: 8 }, (_, i) => `sc-domain:race${i}.example`);
    for (const site of sites) {
      for (const d of ['2026-06-14', '2026-06-13', '2026-06-12', '2026-06-11']) {
        fake.setDay(site, d, 15);
      }
    }
    const ids = [];
    for (const site of sites) ids.push(await property(acc3.id, site, conn));
    const other = await startSyncWorker();
    fake.delayMs = 15;
    try {
      const [a, b] = await Promise.all([sync.runDue(), other.runDue()]);
      expect(a.claimed + b.claimed).toBe(8);
      expect(a.claimed).toBeGreaterThan(0);
      expect(b.claimed).toBeGreaterThan(0);
    } finally {
      fake.delayMs = 0;
    }
    for (const site of sites) {
      const asked = fake.requestsOf(site).map((r) => `${r.day}@${r.startRow}`);
      expect(asked).toEqual([...new Set(asked)]);
      expect(asked).toHaveLength(8); // 4 days × (a full page + a short one)
    }
    for (const id of ids) {
      expect(await state(id)).toMatchObject({ last_sync_status: 'ok', done: 4, total: 4 });
      expect((await factsOf(id)).map((f) => f.n)).toEqual([15, 15, 15, 15]);
    }
  });

  it("rank rows show the Search Console figures of their date's synced facts, also when the facts come after the checks", async () => {
    const acc4 = await admin.account('pro', GENEROUS);
    const yd = new YourDataAdmin(admin);
    const project = await yd.rankProject(acc4.id, 'figures.example', 'Figures');
    const desktop = await yd.keyword(project, 'Trail Shoes');
    const mobile = await yd.keyword(project, 'trail shoes', { device: 'mobile' });
    const uk = await yd.keyword(project, 'trail shoes', { country: 'GB' });
    const none = await yd.keyword(project, 'no such query');
    for (const kw of [desktop, mobile, uk, none]) {
      await yd.checks(kw, [
        { check_date: '2026-06-12', position: 4 },
        { check_date: '2026-06-14', position: 3 },
      ]);
    }
    const entries = async () =>
      Object.fromEntries(
        (
          (await get(t, acc4, '/api/v1/rank/keywords')).body.data.keywords as Array<
            Record<string, unknown>
          >
        ).map((k) => [k.keyword_id, [k.gsc_clicks, k.gsc_impressions, k.gsc_ctr]]),
      );
    // Not synced yet: null (and this page is kept by the API).
    expect(await entries()).toEqual({
      [desktop]: [null, null, null],
      [mobile]: [null, null, null],
      [uk]: [null, null, null],
      [none]: [null, null, null],
    });

    const SITE = 'sc-domain:figures.example';
    const row = (
      q: string,
      page: string,
      country: string,
      device: string,
      c: number,
      i: number,
      p: number,
    ) => ({
      keys: ['2026-06-14', q, `https://figures.example/${page}`, country, device],
      clicks: c,
      impressions: i,
      ctr: c / i,
      position: p,
    });
    fake.setDay(SITE, '2026-06-14', [
      row('trail shoes', 'a', 'usa', 'DESKTOP', 3, 100, 2),
      row('Trail Shoes', 'b', 'usa', 'DESKTOP', 1, 50, 5), // same query, other case, other page
      row('trail shoes', 'a', 'usa', 'MOBILE', 2, 40, 4),
      row('trail shoes', 'a', 'usa', 'TABLET', 1, 10, 6), // mobile includes tablet
      row('trail shoes', 'a', 'gbr', 'DESKTOP', 0, 20, 8),
      row('trail shoes', 'a', 'can', 'DESKTOP', 5, 5, 1), // no keyword in Canada
    ]);
    // 2026-06-12 is synced with facts of other queries only: 0 impressions for the keywords.
    fake.setDay(SITE, '2026-06-12', [
      {
        ...row('unrelated', 'c', 'usa', 'DESKTOP', 1, 9, 3),
        keys: ['2026-06-12', 'unrelated', 'https://figures.example/c', 'usa', 'DESKTOP'],
      },
    ]);
    const conn = await connection(acc4.id, 'rt-figures', 'figures@example.com');
    await property(acc4.id, SITE, conn);
    expect(await sync.runDue()).toMatchObject({ claimed: 1, failed: 0 });

    // The kept page moved with the facts (the rank version was bumped).
    expect(await entries()).toEqual({
      [desktop]: [4, 150, 2.67],
      [mobile]: [3, 50, 6],
      [uk]: [0, 20, 0],
      [none]: [0, 0, null],
    });
    const history = (await get(t, acc4, `/api/v1/rank/history?keyword_id=${desktop}&days=30`)).body
      .data.history as Array<Record<string, unknown>>;
    expect(
      history.map((h) => [
        h.check_date,
        h.gsc_clicks,
        h.gsc_impressions,
        h.gsc_ctr,
        h.gsc_average_position,
      ]),
    ).toEqual([
      ['2026-06-14', 4, 150, 2.67, 3],
      ['2026-06-12', 0, 0, null, null],
    ]);

    // A check stored after the facts takes them; one posted with figures keeps its own.
    await yd.checks(mobile, [{ check_date: '2026-06-14', position: 2 }]);
    await yd.checks(uk, [
      { check_date: '2026-06-14', position: 2, gsc_clicks: 9, gsc_impressions: 99, gsc_ctr: 9.09 },
    ]);
    const after = await entries();
    expect(after[mobile]).toEqual([3, 50, 6]);
    expect(after[uk]).toEqual([9, 99, 9.09]);
  });
});

/**
 * The sync as the worker runs it by itself: the BullMQ job scheduler (GSC_SYNC_ENABLED) claims
 * a sandbox property as soon as it is added and syncs it from the sandbox source through the
 * same code as a Google property.
 */
describe('Search Console sync in the worker (job scheduler, sandbox source)', () => {
  let t: TestApp;
  let db: { url: string; drop: () => Promise<void> } | undefined;
  let worker: TestingModule | undefined;

  beforeAll(async () => {
    db = await createOwnDatabase('gscsched');
    t = await createTestApp({
      now: NOW,
      env: {
        DATABASE_URL: db.url,
        REDIS_PREFIX: `${process.env.REDIS_PREFIX}:gscsched`,
        GSC_SYNC_ENABLED: 'true',
        GSC_SYNC_TICK_SECONDS: '1',
        GSC_BACKFILL_MONTHS: '1',
      },
    });
  });
  afterAll(async () => {
    await worker?.close();
    await t?.close();
    await db?.drop();
  });

  it('syncs a new sandbox property within seconds of it being added', async () => {
    const acc = await new AdminClient(t.url).account('pro', GENEROUS);
    const added = await t.app.get(GscIngestionRepository).addSyncedProperty(
      acc.id,
      {
        propertyUri: 'sc-domain:sandbox.example',
        displayName: 'Sandbox',
        googleEmail: 'sandbox@example.com',
        connectionId: null,
        permissionLevel: 'siteOwner',
        isSandbox: true,
      },
      t.clock.now(),
    );
    worker = await startWorker(t.config, t.clock);
    const queue = worker.get<Queue>(getQueueToken(GSC_SYNC_QUEUE));
    let schedulers = await queue.getJobSchedulers();
    for (let i = 0; i < 50 && schedulers.length < 1; i++) {
      await new Promise((r) => setTimeout(r, 100));
      schedulers = await queue.getJobSchedulers();
    }
    expect(schedulers.map((s) => [s.key, s.every])).toEqual([['sync-due', 1000]]);

    const deadline = Date.now() + 30_000;
    let status: string | null = null;
    while (Date.now() < deadline && status !== 'ok') {
      await new Promise((r) => setTimeout(r, 250));
      const props = (await get(t, acc, '/api/v1/gsc/properties')).body.data.properties;
      status = props[0].last_sync_status as string;
    }
    expect(status).toBe('ok');
    // 2026-05-14 to 2026-06-13: 31 days of a few hundred generated facts each.
    const facts = await t.db.query(
      `SELECT count(DISTINCT date)::int AS days, count(*)::int AS n FROM gsc_rows WHERE property_id = $1`,
      [added!.row.id],
    );
    expect(facts[0].days).toBe(31);
    expect(facts[0].n / 31).toBeGreaterThan(200);
    expect(facts[0].n / 31).toBeLessThan(1000);
  });
});
