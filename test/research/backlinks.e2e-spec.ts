import { createTestApp, TestApp } from '../helpers/test-app';
import { AdminClient, bearer } from '../helpers/fixtures';
import { ROOMY, researchLedger, reservationsOf, usageOf } from './research-helpers';

/** GET /backlinks with the sandbox provider: validation, normalization, cache, billing order. */
describe('GET /api/v1/backlinks (sandbox)', () => {
  let t: TestApp;
  let admin: AdminClient;

  beforeAll(async () => {
    t = await createTestApp({ now: '2026-03-10T12:00:00Z' });
    admin = new AdminClient(t.url);
  });
  afterAll(() => t.close());

  const get = (key: string, query: Record<string, string | number | string[]>) =>
    t.http().get('/api/v1/backlinks').query(query).set(bearer(key));

  describe('validation → 422 VALIDATION_ERROR, nothing charged', () => {
    let acct: { id: number; key: string };
    beforeAll(async () => {
      acct = await admin.account('agency', ROOMY);
      await admin.credits(acct.id, 5);
    });

    it.each([
      ['missing domain', {}],
      ['empty domain', { domain: '' }],
      ['repeated domain', { domain: ['a.com', 'b.com'] }],
      ['page 0', { domain: 'example.com', page: '0' }],
      ['page 1.5', { domain: 'example.com', page: '1.5' }],
      ['page too high', { domain: 'example.com', page: '1001' }],
      ['page beyond the upstream offset', { domain: 'example.com', page: '500', limit: '200' }],
      ['limit 0', { domain: 'example.com', limit: '0' }],
      ['limit 201', { domain: 'example.com', limit: '201' }],
      ['limit abc', { domain: 'example.com', limit: 'abc' }],
      ['domain localhost', { domain: 'localhost' }],
      ['domain 127.0.0.1', { domain: '127.0.0.1' }],
      ['domain http://[::1]/', { domain: 'http://[::1]/' }],
      ['domain single label', { domain: 'a' }],
      ['domain with a space', { domain: 'exa mple.com' }],
      ['domain with user info', { domain: 'http://user:pw@example.com/' }],
      ['domain ftp URL', { domain: 'ftp://example.com/' }],
      ['domain www.com (no name left)', { domain: 'www.com' }],
      ['domain with a 64-char label', { domain: `${'a'.repeat(64)}.com` }],
      ['domain over 253 chars', { domain: `${'abcdefghi.'.repeat(26)}com` }],
      ['domain garbage', { domain: '%%%' }],
      ['domain numeric TLD', { domain: 'example.123' }],
    ])('%s', async (_name, query) => {
      const res = await get(acct.key, query as Record<string, string>);
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(Array.isArray(res.body.error.details)).toBe(true);
    });

    it('charged nothing for any of them', async () => {
      const usage = await usageOf(admin, acct.id);
      expect(usage.backlinks_per_month).toBe(0);
      expect(usage.credits).toBe(5);
      expect(await researchLedger(t.db, acct.id)).toEqual([]);
    });
  });

  describe('normalization and cache', () => {
    it('a full URL becomes its lower-case host without www., and the normalized request is cached', async () => {
      const acct = await admin.account('pro', ROOMY);
      const first = await get(acct.key, { domain: 'https://WWW.Example.COM/some/path?x=1' });
      expect(first.status).toBe(200);
      expect(first.body.data.domain).toBe('example.com');
      expect(first.body.data.page).toBe(1);
      expect(first.body.data.limit).toBe(100);
      expect(first.body.meta).toMatchObject({
        cached: false,
        provider: 'sandbox',
        charged: 'quota',
      });
      const second = await get(acct.key, { domain: 'example.com' });
      expect(second.body.meta).toMatchObject({
        cached: true,
        provider: 'sandbox',
        charged: 'none',
      });
      expect(second.body.data).toEqual(first.body.data);
      const usage = await usageOf(admin, acct.id);
      expect(usage.backlinks_per_month).toBe(1); // the hit was free
      expect(usage.api_calls_per_month).toBe(2); // but counted as a call
    });

    it('an IDN becomes punycode', async () => {
      const acct = await admin.account('pro', ROOMY);
      const res = await get(acct.key, { domain: 'https://www.Bücher.de/' });
      expect(res.status).toBe(200);
      expect(res.body.data.domain).toBe('xn--bcher-kva.de');
    });

    it('returns every spec field of the profile', async () => {
      const acct = await admin.account('pro', ROOMY);
      const res = await get(acct.key, { domain: 'shape.example', limit: '3' });
      const d = res.body.data;
      expect(Object.keys(d).sort()).toEqual(
        [
          'backlinks',
          'domain',
          'insights',
          'limit',
          'overview',
          'page',
          'referring_domains',
          'total_backlinks',
        ].sort(),
      );
      expect(Object.keys(d.overview).sort()).toEqual(
        [
          'domain_rank',
          'total_backlinks',
          'referring_domains',
          'referring_domains_nofollow',
          'referring_main_domains',
          'referring_pages',
          'referring_ips',
          'referring_subnets',
          'dofollow_backlinks',
          'broken_backlinks',
          'broken_pages',
          'spam_score',
          'first_seen',
          'lost_date',
        ].sort(),
      );
      expect(d.overview.first_seen).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      expect(d.backlinks).toHaveLength(3);
      expect(Object.keys(d.backlinks[0]).length).toBe(32);
      expect([0, 1]).toContain(d.backlinks[0].dofollow);
    });

    it('Pro answers stay cached 2 days, Agency 7 days', async () => {
      const pro = await admin.account('pro', ROOMY);
      const agency = await admin.account('agency', ROOMY);
      const start = t.clock.now();
      for (const a of [pro, agency])
        expect((await get(a.key, { domain: 'ttl.example' })).body.meta.cached).toBe(false);
      t.clock.advance(2 * 86_400_000 - 60_000);
      expect((await get(pro.key, { domain: 'ttl.example' })).body.meta.cached).toBe(true);
      t.clock.advance(120_000); // just past 2 days
      expect((await get(pro.key, { domain: 'ttl.example' })).body.meta.cached).toBe(false);
      expect((await get(agency.key, { domain: 'ttl.example' })).body.meta.cached).toBe(true);
      t.clock.advance(5 * 86_400_000); // past 7 days
      expect((await get(agency.key, { domain: 'ttl.example' })).body.meta.cached).toBe(false);
      t.clock.set(start);
    });

    it('the cache is per account', async () => {
      const a = await admin.account('pro', ROOMY);
      const b = await admin.account('pro', ROOMY);
      await get(a.key, { domain: 'shared.example' });
      expect((await get(b.key, { domain: 'shared.example' })).body.meta.cached).toBe(false);
    });
  });

  describe('billing: quota, then 1 credit, then 402', () => {
    it('uses the monthly quota, then credits (ledger rows with the request id), then 402', async () => {
      const acct = await admin.account('pro', { ...ROOMY, backlinks_per_month: 2 });
      await admin.credits(acct.id, 1);
      for (const d of ['q1.example', 'q2.example']) {
        const res = await get(acct.key, { domain: d });
        expect(res.body.meta.charged).toBe('quota');
      }
      const third = await get(acct.key, { domain: 'c1.example' });
      expect(third.status).toBe(200);
      expect(third.body.meta.charged).toBe('credit');
      const fourth = await get(acct.key, { domain: 'c2.example' });
      expect(fourth.status).toBe(402);
      expect(fourth.body.error.code).toBe('PAYMENT_REQUIRED');
      // A cache hit still works and is free.
      const hit = await get(acct.key, { domain: 'q1.example' });
      expect(hit.status).toBe(200);
      expect(hit.body.meta.cached).toBe(true);

      const usage = await usageOf(admin, acct.id);
      expect(usage.backlinks_per_month).toBe(2);
      expect(usage.credits).toBe(0);
      const ledger = await researchLedger(t.db, acct.id);
      expect(ledger).toEqual([
        {
          delta: -1,
          balance_after: 0,
          reason: 'backlinks: c1.example page 1 limit 100',
          request_id: third.body.meta.request_id,
        },
      ]);
      const journal = await reservationsOf(t.db, acct.id);
      expect(journal.map((r) => `${r.kind}:${r.state}`)).toEqual([
        'quota:committed',
        'quota:committed',
        'credit:committed',
      ]);
    });

    it('page > 1 or limit > 100 always costs a credit, even with quota left', async () => {
      const acct = await admin.account('pro', ROOMY);
      await admin.credits(acct.id, 2);
      const p2 = await get(acct.key, { domain: 'paged.example', page: '2' });
      expect(p2.status).toBe(200);
      expect(p2.body.data.page).toBe(2);
      expect(p2.body.meta.charged).toBe('credit');
      const big = await get(acct.key, { domain: 'paged.example', limit: '150' });
      expect(big.body.meta.charged).toBe('credit');
      expect(big.body.data.limit).toBe(150);
      const none = await get(acct.key, { domain: 'paged.example', page: '3' });
      expect(none.status).toBe(402);
      const limit100 = await get(acct.key, { domain: 'paged.example', limit: '100' });
      expect(limit100.body.meta.charged).toBe('quota');
      const usage = await usageOf(admin, acct.id);
      expect(usage.backlinks_per_month).toBe(1);
      expect(usage.credits).toBe(0);
      expect((await researchLedger(t.db, acct.id)).map((r) => r.delta)).toEqual([-1, -1]);
    });

    it('50 parallel distinct calls with 10 credits and no quota spend exactly 10 credits', async () => {
      const acct = await admin.account('agency', { ...ROOMY, backlinks_per_month: 0 });
      await admin.credits(acct.id, 10);
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) => get(acct.key, { domain: `parallel${i}.example` })),
      );
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(10);
      expect(statuses.filter((s) => s === 402)).toHaveLength(40);
      const usage = await usageOf(admin, acct.id);
      expect(usage.credits).toBe(0);
      const ledger = await researchLedger(t.db, acct.id);
      expect(ledger).toHaveLength(10);
      expect(ledger.every((r) => r.delta === -1 && r.balance_after >= 0)).toBe(true);
      const ok = new Set(
        results.filter((r) => r.status === 200).map((r) => r.body.meta.request_id),
      );
      expect(new Set(ledger.map((r) => r.request_id))).toEqual(ok);
    });
  });
});
