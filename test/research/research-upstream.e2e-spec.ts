import { createTestApp, TestApp } from '../helpers/test-app';
import { AdminClient, bearer } from '../helpers/fixtures';
import { FakeDataForSeo } from '../fixtures/fake-dataforseo';
import { ReservationsRepository } from '@app/billing';
import { ReservationSweeper } from '../../apps/api/src/research/reservation-sweeper.service';
import { ResearchCacheRepository } from '../../apps/api/src/research/research-cache.repository';
import { ROOMY, researchLedger, reservationsOf, usageOf } from './research-helpers';

/**
 * The research endpoints with SEO_DATA_PROVIDER=dataforseo against the local fake server:
 * 502 with refunds, in-flight deduplication (409), meta.provider, the applied language
 * sent upstream, and crash recovery of reservations.
 */
describe('research endpoints against a fake DataForSEO', () => {
  const fake = new FakeDataForSeo();
  let t: TestApp;
  let admin: AdminClient;

  beforeAll(async () => {
    await fake.start();
    fake.slowMs = 1500;
    t = await createTestApp({
      now: '2026-03-10T12:00:00Z',
      env: fake.env({ DATAFORSEO_TIMEOUT_MS: '3000' }),
    });
    admin = new AdminClient(t.url);
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });
  beforeEach(() => fake.reset());

  const backlinks = (key: string, domain: string, extra: Record<string, string> = {}) =>
    t
      .http()
      .get('/api/v1/backlinks')
      .query({ domain, ...extra })
      .set(bearer(key));
  const keywords = (key: string, body: Record<string, unknown>) =>
    t.http().post('/api/v1/keyword-research').set(bearer(key)).send(body);

  it('answers carry meta.provider "dataforseo" and the mapped upstream data', async () => {
    const acct = await admin.account('pro', ROOMY);
    const res = await backlinks(acct.key, 'https://www.Example.com/x', { limit: '2' });
    expect(res.status).toBe(200);
    expect(res.body.meta).toMatchObject({ provider: 'dataforseo', cached: false });
    expect(res.body.data.overview.domain_rank).toBe(89);
    expect(res.body.data.backlinks).toHaveLength(2);
    expect(
      fake.requests.every((r) => (r.body as Array<{ target: string }>)[0].target === 'example.com'),
    ).toBe(true);
  });

  it('the applied market language is what goes upstream (zh → zh-TW in Taiwan; en → ja in Japan)', async () => {
    const acct = await admin.account('agency', ROOMY);
    const tw = await keywords(acct.key, {
      keyword: 'bubble tea',
      location_code: 2158,
      language_code: 'zh',
    });
    expect(tw.body.data.language_code).toBe('zh');
    const jp = await keywords(acct.key, {
      keyword: 'bubble tea',
      location_code: 2392,
      language_code: 'en',
    });
    expect(jp.body.data.language_code).toBe('ja');
    const sent = fake.requests.map(
      (r) => (r.body as Array<{ language_code: string }>)[0].language_code,
    );
    expect(sent).toEqual(['zh-TW', 'ja']);
    expect(tw.body.meta.provider).toBe('dataforseo');
  });

  describe('502 UPSTREAM_ERROR refunds what was reserved', () => {
    it('backlinks "no data" → 502, the quota unit is released', async () => {
      const acct = await admin.account('pro', ROOMY);
      const res = await backlinks(acct.key, 'nodata-site.com');
      expect(res.status).toBe(502);
      expect(res.body.error.code).toBe('UPSTREAM_ERROR');
      expect(JSON.stringify(res.body)).not.toMatch(/fake-|password|status_code|Scripted|40100/);
      expect((await usageOf(admin, acct.id)).backlinks_per_month).toBe(0);
      expect((await reservationsOf(t.db, acct.id)).map((r) => `${r.kind}:${r.state}`)).toEqual([
        'quota:refunded',
      ]);
    });

    it('backlinks paid by credit → 502 after retries → the credit comes back as a new ledger row', async () => {
      const acct = await admin.account('pro', { ...ROOMY, backlinks_per_month: 0 });
      await admin.credits(acct.id, 1);
      fake.failNext('/v3/backlinks/summary/live', { http: 500 }, { http: 500 }, { http: 500 });
      const res = await backlinks(acct.key, 'flaky.example');
      expect(res.status).toBe(502);
      expect(fake.requests.filter((r) => r.path === '/v3/backlinks/summary/live')).toHaveLength(3);
      const usage = await usageOf(admin, acct.id);
      expect(usage.credits).toBe(1);
      const ledger = await researchLedger(t.db, acct.id);
      expect(ledger.map((r) => [r.delta, r.balance_after, r.request_id])).toEqual([
        [-1, 0, res.body.meta.request_id],
        [1, 1, res.body.meta.request_id],
      ]);
      expect(ledger[1].reason).toMatch(/^refund: backlinks/);
      // Nothing was cached: the next request fetches (and pays) again.
      const again = await backlinks(acct.key, 'flaky.example');
      expect(again.status).toBe(200);
      expect(again.body.meta).toMatchObject({ cached: false, charged: 'credit' });
    });

    it('a transient upstream failure is retried and the request succeeds, charged once', async () => {
      const acct = await admin.account('pro', ROOMY);
      fake.failNext('/v3/backlinks/backlinks/live', { task: 50000 });
      const res = await backlinks(acct.key, 'retry.example');
      expect(res.status).toBe(200);
      expect((await usageOf(admin, acct.id)).backlinks_per_month).toBe(1);
    });

    it('keyword research "no data" → 502, quota released, credits untouched', async () => {
      const acct = await admin.account('pro', ROOMY);
      await admin.credits(acct.id, 3);
      const res = await keywords(acct.key, { keyword: 'nodata whatever' });
      expect(res.status).toBe(502);
      expect(res.body.error.code).toBe('UPSTREAM_ERROR');
      const usage = await usageOf(admin, acct.id);
      expect(usage.keyword_research_per_month).toBe(0);
      expect(usage.credits).toBe(3);
      expect(await researchLedger(t.db, acct.id)).toEqual([]);
    });

    it('a slow upstream times out → 502 and the quota is released', async () => {
      const t2 = await createTestApp({
        env: fake.env({ DATAFORSEO_TIMEOUT_MS: '150', DATAFORSEO_MAX_RETRIES: '1' }),
      });
      try {
        const a2 = new AdminClient(t2.url);
        const acct = await a2.account('pro', ROOMY);
        const res = await t2
          .http()
          .post('/api/v1/keyword-research')
          .set(bearer(acct.key))
          .send({ keyword: 'slow coffee' });
        expect(res.status).toBe(502);
        expect((await usageOf(a2, acct.id)).keyword_research_per_month).toBe(0);
      } finally {
        await t2.close();
      }
    });
  });

  describe('in-flight deduplication', () => {
    it('two identical concurrent backlinks requests: one 200, one 409 ALREADY_RUNNING charged nothing; the retry is a cache hit', async () => {
      const acct = await admin.account('pro', { ...ROOMY, backlinks_per_month: 0 });
      await admin.credits(acct.id, 5);
      const [a, b] = await Promise.all([
        backlinks(acct.key, 'slow-site.com'),
        new Promise((r) => setTimeout(r, 300)).then(() => backlinks(acct.key, 'slow-site.com')),
      ]);
      expect([a.status, b.status].sort()).toEqual([200, 409]);
      const conflict = a.status === 409 ? a : b;
      expect(conflict.body.error.code).toBe('ALREADY_RUNNING');
      const usage = await usageOf(admin, acct.id);
      expect(usage.credits).toBe(4);
      const ledger = await researchLedger(t.db, acct.id);
      expect(ledger).toHaveLength(1);
      expect(ledger[0].request_id).not.toBe(conflict.body.meta.request_id);
      expect(fake.requests.filter((r) => r.path === '/v3/backlinks/summary/live')).toHaveLength(1);
      const retry = await backlinks(acct.key, 'slow-site.com');
      expect(retry.status).toBe(200);
      expect(retry.body.meta).toMatchObject({ cached: true, charged: 'none' });
      expect((await usageOf(admin, acct.id)).credits).toBe(4);
    });

    it('two identical concurrent keyword lookups: one 200, one 409 with no quota taken', async () => {
      const acct = await admin.account('pro', ROOMY);
      const [a, b] = await Promise.all([
        keywords(acct.key, { keyword: 'slow brew' }),
        new Promise((r) => setTimeout(r, 300)).then(() =>
          keywords(acct.key, { keyword: 'Slow Brew ' }),
        ),
      ]);
      expect([a.status, b.status].sort()).toEqual([200, 409]);
      expect((await usageOf(admin, acct.id)).keyword_research_per_month).toBe(1);
      const retry = await keywords(acct.key, { keyword: 'slow brew' });
      expect(retry.body.meta.cached).toBe(true);
    });

    it('different accounts are not deduplicated against each other', async () => {
      const a1 = await admin.account('pro', ROOMY);
      const a2 = await admin.account('pro', ROOMY);
      const [r1, r2] = await Promise.all([
        backlinks(a1.key, 'slow-two.com'),
        backlinks(a2.key, 'slow-two.com'),
      ]);
      expect([r1.status, r2.status]).toEqual([200, 200]);
    });
  });

  describe('crash recovery of reservations', () => {
    it('the sweeper refunds reservations left open by a crashed request, and only stale ones', async () => {
      const acct = await admin.account('pro', ROOMY);
      await admin.credits(acct.id, 2);
      const repo = t.app.get(ReservationsRepository);
      const sweeper = t.app.get(ReservationSweeper);
      const now = t.clock.now();
      // What a request that died after reserving (before commit/refund) leaves behind:
      const credit = await repo.reserveCredit(
        acct.id,
        'backlinks',
        1,
        'backlinks: crash.example page 1 limit 100',
        'req-crash-1',
        now,
      );
      const { reservation: quota } = await repo.reserveQuota(
        acct.id,
        'keyword_research',
        'keyword_research',
        100,
        'req-crash-2',
        now,
        t.clock.statementTime(),
      );
      expect(credit && quota).toBeTruthy();
      let usage = await usageOf(admin, acct.id);
      expect([usage.credits, usage.keyword_research_per_month]).toEqual([1, 1]);

      // Still within the longest possible request: untouched.
      await sweeper.sweep(new Date(now.getTime() + 60_000));
      expect((await repo.find(credit!.id))!.state).toBe('reserved');

      t.clock.advance(11 * 60_000);
      const result = await sweeper.sweep();
      expect(result.refunded).toBeGreaterThanOrEqual(2);
      expect((await repo.find(credit!.id))!.state).toBe('refunded');
      expect((await repo.find(quota!.id))!.state).toBe('refunded');
      usage = await usageOf(admin, acct.id);
      expect([usage.credits, usage.keyword_research_per_month]).toEqual([2, 0]);
      const ledger = await researchLedger(t.db, acct.id);
      expect(ledger.map((r) => [r.delta, r.request_id])).toEqual([
        [-1, 'req-crash-1'],
        [1, 'req-crash-1'],
      ]);
      // A second sweep (or another instance) refunds nothing twice.
      await sweeper.sweep();
      expect(await researchLedger(t.db, acct.id)).toHaveLength(2);
      t.clock.advance(-11 * 60_000);
    });

    it('purging expired cache answers deletes exactly those and reports how many', async () => {
      const acct = await admin.account('pro', ROOMY);
      const cache = t.app.get(ResearchCacheRepository);
      const old = new Date(t.clock.now().getTime() - 30 * 86_400_000);
      await cache.put(acct.id, 'backlinks', 'purge-a', 'sandbox', { a: 1 }, old);
      await cache.put(acct.id, 'backlinks', 'purge-b', 'sandbox', { b: 1 }, old);
      await cache.put(acct.id, 'backlinks', 'purge-fresh', 'sandbox', { c: 1 }, t.clock.now());
      const cutoff = new Date(old.getTime() + 1000);
      expect(await cache.purge('backlinks', cutoff)).toBe(2);
      expect(await cache.purge('backlinks', cutoff)).toBe(0);
      const left = await t.db.query(
        'SELECT count(*)::int AS n FROM research_cache WHERE account_id = $1',
        [acct.id],
      );
      expect(left[0].n).toBe(1);
    });

    it('a committed reservation is never refunded', async () => {
      const acct = await admin.account('pro', ROOMY);
      const repo = t.app.get(ReservationsRepository);
      const { reservation: r } = await repo.reserveQuota(
        acct.id,
        'backlinks',
        'backlinks',
        10,
        'req-ok',
        t.clock.now(),
        t.clock.statementTime(),
      );
      expect(await repo.commit(r!.id, t.clock.now())).toBe(true);
      expect(await repo.refund(r!.id, 'test', t.clock.now())).toBe(false);
      expect((await usageOf(admin, acct.id)).backlinks_per_month).toBe(1);
    });
  });
});
