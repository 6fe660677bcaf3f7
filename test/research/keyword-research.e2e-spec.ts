import { createTestApp, TestApp } from '../helpers/test-app';
import { AdminClient, bearer } from '../helpers/fixtures';
import { ROOMY, researchLedger, usageOf } from './research-helpers';

/** POST /keyword-research and GET /keyword-research/locations with the sandbox provider. */
describe('POST /api/v1/keyword-research (sandbox)', () => {
  let t: TestApp;
  let admin: AdminClient;

  beforeAll(async () => {
    t = await createTestApp({
      now: '2026-03-10T12:00:00Z',
      env: { KEYWORD_CACHE_TTL_SECONDS: '3600' },
    });
    admin = new AdminClient(t.url);
  });
  afterAll(() => t.close());

  const post = (key: string, body: unknown) =>
    t
      .http()
      .post('/api/v1/keyword-research')
      .set(bearer(key))
      .send(body as object);

  describe('validation', () => {
    let acct: { id: number; key: string };
    beforeAll(async () => {
      acct = await admin.account('agency', ROOMY);
    });

    it.each([
      ['missing keyword', {}],
      ['keyword not a string', { keyword: 42 }],
      ['keyword an array', { keyword: ['a', 'b'] }],
      ['keyword of 201 characters', { keyword: 'k'.repeat(201) }],
      ['whitespace-only keyword', { keyword: '   \t  ' }],
      ['keyword with a NUL byte', { keyword: 'abc\u0000def' }],
      ['keyword with an escape character', { keyword: 'abc\u001bdef' }],
      ['limit 0', { keyword: 'shoes', limit: 0 }],
      ['limit 101', { keyword: 'shoes', limit: 101 }],
      ['limit as a string', { keyword: 'shoes', limit: '5' }],
      ['limit 2.5', { keyword: 'shoes', limit: 2.5 }],
      ['location_code as a string', { keyword: 'shoes', location_code: '2840' }],
      ['location_code 2840.5', { keyword: 'shoes', location_code: 2840.5 }],
      ['language_code not a string', { keyword: 'shoes', language_code: 5 }],
    ])('%s → 422 VALIDATION_ERROR', async (_name, body) => {
      const res = await post(acct.key, body);
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    });

    it('a JSON array body → 422', async () => {
      const res = await post(acct.key, [{ keyword: 'x' }]);
      expect(res.status).toBe(422);
    });

    it.each([
      ['an unknown code', 9999],
      ['China (not a Labs market)', 2156],
      ['Russia', 2643],
      ['a sub-country code', 1023191],
    ])('location_code of %s → 422 UNSUPPORTED_LOCATION (no fallback)', async (_name, code) => {
      const res = await post(acct.key, { keyword: 'shoes', location_code: code });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('UNSUPPORTED_LOCATION');
    });

    it('charged nothing', async () => {
      const usage = await usageOf(admin, acct.id);
      expect(usage.keyword_research_per_month).toBe(0);
    });

    it('a keyword of exactly 200 characters is accepted', async () => {
      const res = await post(acct.key, { keyword: `  ${'k'.repeat(200)}  ` });
      expect(res.status).toBe(200);
    });
  });

  describe('answers', () => {
    it('defaults: 2840, en, 10 related rows; keyword trimmed; every metric field present', async () => {
      const acct = await admin.account('pro', ROOMY);
      const res = await post(acct.key, { keyword: '  Running   Shoes ' });
      expect(res.status).toBe(200);
      const d = res.body.data;
      expect(d.keyword).toBe('running shoes');
      expect(d.location_code).toBe(2840);
      expect(d.language_code).toBe('en');
      expect(typeof d.total_count).toBe('number');
      expect(d.related_keywords).toHaveLength(10);
      const metricFields = [
        'search_volume',
        'cpc',
        'competition',
        'competition_level',
        'difficulty',
        'intent',
        'trend',
        'growth',
        'serp_features',
        'bid_low',
        'bid_high',
        'avg_backlinks',
        'avg_ref_domains',
        'comp_domain_rank',
        'se_results',
      ];
      expect(Object.keys(d.overview).sort()).toEqual([...metricFields].sort());
      expect(d.overview.trend).toHaveLength(12);
      expect(Object.keys(d.related_keywords[0]).sort()).toEqual(
        [...metricFields, 'keyword', 'related', 'match_bucket'].sort(),
      );
      for (const row of d.related_keywords) {
        expect(row.related.length).toBeLessThanOrEqual(8);
        expect(['similar', 'related', 'question']).toContain(row.match_bucket);
      }
      expect(res.body.meta).toMatchObject({ cached: false, provider: 'sandbox', charged: 'quota' });
    });

    it('language: unknown → en, market rule applied and echoed', async () => {
      const acct = await admin.account('agency', ROOMY);
      const cases: Array<[Record<string, unknown>, number, string]> = [
        [{ language_code: 'xx' }, 2840, 'en'],
        [{ language_code: 'e\u0000n' }, 2840, 'en'],
        [{ language_code: 'ES' }, 2840, 'es'],
        [{ language_code: 'pt-BR', location_code: 2076 }, 2076, 'pt'],
        [{ language_code: 'en', location_code: 2392 }, 2392, 'ja'], // Japan offers ja only
        [{ language_code: 'fr', location_code: 2056 }, 2056, 'fr'], // Belgium offers nl/fr/de
        [{ language_code: 'es', location_code: 2056 }, 2056, 'nl'], // not offered → market language
        [{ language_code: 'de', location_code: 2784 }, 2784, 'en'], // UAE: ar/en, listed as en
        [{ language_code: 'en', location_code: 2008 }, 2008, 'sq'], // Albania offers sq only
        [{ language_code: 'zh', location_code: 2158 }, 2158, 'zh'], // Taiwan zh-TW
      ];
      for (const [extra, loc, lang] of cases) {
        const res = await post(acct.key, { keyword: 'coffee', ...extra });
        expect(res.status).toBe(200);
        expect([res.body.data.location_code, res.body.data.language_code]).toEqual([loc, lang]);
      }
    });

    it('a repeated lookup is served from cache for free; the cache expires after KEYWORD_CACHE_TTL_SECONDS', async () => {
      const acct = await admin.account('pro', ROOMY);
      const first = await post(acct.key, { keyword: 'espresso machine', limit: 5 });
      const second = await post(acct.key, { keyword: 'Espresso  Machine', limit: 5 });
      expect(second.body.meta).toMatchObject({
        cached: true,
        charged: 'none',
        provider: 'sandbox',
      });
      expect(second.body.data).toEqual(first.body.data);
      expect((await usageOf(admin, acct.id)).keyword_research_per_month).toBe(1);
      // Another limit is another request.
      expect(
        (await post(acct.key, { keyword: 'espresso machine', limit: 6 })).body.meta.cached,
      ).toBe(false);
      const start = t.clock.now();
      t.clock.advance(3601_000);
      expect(
        (await post(acct.key, { keyword: 'espresso machine', limit: 5 })).body.meta.cached,
      ).toBe(false);
      t.clock.set(start);
    });

    it('quota used up → 429 QUOTA_EXCEEDED with meta.resets_at; credits never touched; cache still free', async () => {
      const acct = await admin.account('pro', { ...ROOMY, keyword_research_per_month: 2 });
      await admin.credits(acct.id, 5);
      expect((await post(acct.key, { keyword: 'one' })).status).toBe(200);
      expect((await post(acct.key, { keyword: 'two' })).status).toBe(200);
      const third = await post(acct.key, { keyword: 'three' });
      expect(third.status).toBe(429);
      expect(third.body.error.code).toBe('QUOTA_EXCEEDED');
      expect(third.body.meta.resets_at).toBe('2026-04-01');
      const hit = await post(acct.key, { keyword: 'one' });
      expect(hit.status).toBe(200);
      expect(hit.body.meta.cached).toBe(true);
      const usage = await usageOf(admin, acct.id);
      expect(usage.keyword_research_per_month).toBe(2);
      expect(usage.credits).toBe(5);
      expect(await researchLedger(t.db, acct.id)).toEqual([]);
    });
  });
});

describe('GET /api/v1/keyword-research/locations', () => {
  let t: TestApp;
  let admin: AdminClient;

  beforeAll(async () => {
    t = await createTestApp();
    admin = new AdminClient(t.url);
  });
  afterAll(() => t.close());

  it('lists our 94 markets with count and note; languages among our ten codes', async () => {
    const acct = await admin.account('pro');
    const res = await t.http().get('/api/v1/keyword-research/locations').set(bearer(acct.key));
    expect(res.status).toBe(200);
    const { locations, count, note } = res.body.data;
    expect(count).toBe(94);
    expect(locations).toHaveLength(94);
    expect(typeof note).toBe('string');
    expect(new Set(locations.map((l: { location_code: number }) => l.location_code)).size).toBe(94);
    const by = (code: number) =>
      locations.find((l: { location_code: number }) => l.location_code === code);
    expect(by(2840)).toEqual({
      location_code: 2840,
      location_name: 'United States',
      country_iso: 'US',
      language_code: 'en',
    });
    expect(by(2826)).toMatchObject({ country_iso: 'GB', language_code: 'en' });
    expect(by(2392)).toMatchObject({ country_iso: 'JP', language_code: 'ja' });
    expect(by(2756)).toMatchObject({ country_iso: 'CH', language_code: 'fr' });
    expect(by(2784)).toMatchObject({ country_iso: 'AE', language_code: 'en' }); // ar first → en
    expect(by(2804)).toMatchObject({ country_iso: 'UA', language_code: 'ru' });
    expect(by(2158)).toMatchObject({ country_iso: 'TW', language_code: 'zh' });
    expect(by(2008)).toMatchObject({ country_iso: 'AL', language_code: 'en' });
    for (const l of locations) {
      expect(['en', 'es', 'fr', 'de', 'it', 'pt', 'nl', 'ru', 'ja', 'zh']).toContain(
        l.language_code,
      );
      expect(l.location_code).toBe(
        2000 + Number(isoNumeric[l.country_iso] ?? l.location_code - 2000),
      );
    }
    // Costs a call (group "other"), no feature quota.
    const usage = await usageOf(admin, acct.id);
    expect(usage.api_calls_per_month).toBe(1);
    expect(usage.keyword_research_per_month).toBe(0);
  });
});

/** A few ISO 3166-1 numeric codes to check the 2000 + numeric rule independently. */
const isoNumeric: Record<string, number> = {
  US: 840,
  GB: 826,
  DE: 276,
  FR: 250,
  JP: 392,
  CH: 756,
  BR: 76,
  IN: 356,
  NO: 578,
};
