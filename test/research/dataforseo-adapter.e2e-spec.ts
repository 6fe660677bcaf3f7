import { Logger } from '@nestjs/common';
import { ApiError } from '@app/core';
import { DataForSeoClient, DataForSeoProvider } from '@app/providers';
import { FakeDataForSeo } from '../fixtures/fake-dataforseo';

/**
 * The dataforseo adapter over real HTTP against the local fake server (no mocked HTTP
 * client): auth header, request bodies, every mapped field, rank scale, nulls, retries,
 * "no data", timeouts. Short timeouts and backoff keep it fast.
 */
describe('DataForSEO adapter (real HTTP, fake upstream)', () => {
  const fake = new FakeDataForSeo();
  const make = (over: Partial<{ timeoutMs: number; maxRetries: number; password: string }> = {}) =>
    new DataForSeoProvider(
      new DataForSeoClient({
        baseUrl: fake.url,
        login: fake.login,
        password: over.password ?? fake.password,
        timeoutMs: over.timeoutMs ?? 2000,
        maxRetries: over.maxRetries ?? 2,
        backoffMs: 5,
      }),
    );

  beforeAll(async () => {
    Logger.overrideLogger(false);
    await fake.start();
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  const expectUpstreamError = async (p: Promise<unknown>) => {
    const err = await p.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe('UPSTREAM_ERROR');
    expect((err as ApiError).status).toBe(502);
    // Generic: no upstream message, path or credential.
    expect((err as ApiError).message).not.toMatch(
      /40100|50000|Scripted|fake-|authoriz|dataforseo/i,
    );
    return err as ApiError;
  };

  describe('backlinks', () => {
    it('sends Basic auth and one-task array bodies to summary/live and backlinks/live', async () => {
      await make().backlinkProfile({ domain: 'example.com', page: 3, limit: 20 });
      expect(fake.requests).toHaveLength(2);
      const auth = `Basic ${Buffer.from('fake-login:fake-password-123').toString('base64')}`;
      for (const r of fake.requests) {
        expect(r.method).toBe('POST');
        expect(r.authorization).toBe(auth);
        expect(r.contentType).toMatch(/application\/json/);
        expect(Array.isArray(r.body)).toBe(true);
        expect(r.body as unknown[]).toHaveLength(1);
      }
      const summary = fake.requests.find((r) => r.path === '/v3/backlinks/summary/live')!;
      expect((summary.body as unknown[])[0]).toEqual({
        target: 'example.com',
        include_subdomains: true,
        rank_scale: 'one_hundred',
        internal_list_limit: 20,
      });
      const list = fake.requests.find((r) => r.path === '/v3/backlinks/backlinks/live')!;
      expect((list.body as unknown[])[0]).toEqual({
        target: 'example.com',
        mode: 'as_is',
        limit: 20,
        offset: 40,
        rank_scale: 'one_hundred',
      });
    });

    it('maps every overview and insights field (rank on the 0-100 sine scale, dofollow = backlinks - nofollow)', async () => {
      const p = await make().backlinkProfile({ domain: 'example.com', page: 1, limit: 5 });
      expect(p.domain).toBe('example.com');
      expect(p.total_backlinks).toBe(41245);
      expect(p.referring_domains).toBe(12372);
      expect(p.page).toBe(1);
      expect(p.limit).toBe(5);
      expect(p.overview).toEqual({
        domain_rank: 89, // 694 on the 0-1000 scale → round(sin(694/636.62)*100)
        total_backlinks: 41245,
        referring_domains: 12372,
        referring_domains_nofollow: 1500,
        referring_main_domains: 11438,
        referring_pages: 38786,
        referring_ips: 10401,
        referring_subnets: 6427,
        dofollow_backlinks: 36000, // 41245 - 5245 nofollow
        broken_backlinks: 209,
        broken_pages: 265,
        spam_score: 8,
        first_seen: '2020-01-18 11:50:58',
        lost_date: null,
      });
      expect(p.insights).toEqual({
        referring_links_types: { anchor: 36666, image: 3000 },
        referring_links_attributes: { nofollow: 5245, noopener: 8960 },
        referring_links_platform_types: { cms: 13222, blogs: 4000 },
        referring_links_tld: { com: 26012, net: 1080 },
        referring_links_countries: { '': 27445, US: 3867, WW: 1439 },
        referring_subnets: 6427,
        referring_main_domains: 11438,
      });
      expect(p.backlinks).toHaveLength(5);
    });

    it('maps every backlink item field, flags as 1/0, dates without offset, and nulls', async () => {
      const p = await make().backlinkProfile({ domain: 'example.com', page: 1, limit: 2 });
      expect(p.backlinks[0]).toEqual({
        domain_from: 'www.site0.com',
        url_from: 'https://www.site0.com/page-0',
        url_to: 'https://example.com/',
        anchor: 'anchor 0',
        dofollow: 1,
        spam_score: 3,
        domain_from_rank: 84, // 635
        page_from_rank: 99, // 897
        is_new: 0,
        is_lost: 0,
        is_broken: 0,
        first_seen: '2022-04-01 00:45:19',
        last_seen: '2024-04-02 08:15:00',
        lost_date: null,
        platform_type: 'cms',
        country: 'US',
        tld_from: 'com',
        item_type: 'anchor',
        page_from_status_code: 200,
        url_to_status_code: 200,
        attributes: ['noopener', 'noreferrer'],
        kw_top3: 28,
        kw_top10: 60,
        kw_top100: 1979,
        semantic_location: 'article',
        page_from_title: 'Page 0 title',
        domain_from_ip: '104.21.3.4',
        links_count: 1,
        is_indirect_link: 0,
        url_from_https: 1,
        text_pre: 'Read about',
        text_post: 'for details.',
      });
      const lost = p.backlinks[1];
      expect(lost).toMatchObject({
        is_lost: 1,
        lost_date: '2024-04-02 08:15:00', // lost links: last_seen
        dofollow: 0,
        attributes: [],
        platform_type: null,
        country: null,
        anchor: null,
        semantic_location: null,
        url_to_status_code: null,
        is_broken: 1,
        is_indirect_link: 1,
        url_from_https: 0,
        page_from_rank: 0,
        domain_from_rank: 100,
      });
    });

    it('a summary with result null ("no data") is 502 UPSTREAM_ERROR', async () => {
      await expectUpstreamError(
        make().backlinkProfile({ domain: 'nodata.example', page: 1, limit: 10 }),
      );
    });

    it('wrong credentials (HTTP 401, 40100, tasks null) fail fast with a generic 502', async () => {
      await expectUpstreamError(
        make({ password: 'wrong' }).backlinkProfile({ domain: 'example.com', page: 1, limit: 10 }),
      );
      expect(fake.requests).toHaveLength(2); // one attempt per endpoint: 401 is not retried
    });
  });

  describe('retries', () => {
    const path = '/v3/dataforseo_labs/google/related_keywords/live';
    const call = (p = make()) =>
      p.keywordResearch({
        keyword: 'running shoes',
        locationCode: 2840,
        upstreamLanguage: 'en',
        limit: 5,
      });
    const calls = () => fake.requests.filter((r) => r.path === path).length;

    it.each([
      ['HTTP 500', { http: 500 }],
      ['request-level 40202 (rate limit)', { top: 40202 }],
      ['task-level 50000', { task: 50000 }],
      ['task-level 40209', { task: 40209 }],
      ['a dropped connection', { reset: true as const }],
    ])('retries after %s, then succeeds', async (_name, failure) => {
      fake.failNext(path, failure, failure);
      const r = await call();
      expect(r.overview.search_volume).toBe(27100);
      expect(calls()).toBe(3);
    });

    it('gives up after maxRetries and answers 502', async () => {
      fake.failNext(path, { task: 50301 }, { task: 50301 }, { task: 50301 });
      await expectUpstreamError(call());
      expect(calls()).toBe(3);
    });

    it('does not retry a non-retryable code (40501 invalid field)', async () => {
      fake.failNext(path, { task: 40501 });
      await expectUpstreamError(call());
      expect(calls()).toBe(1);
    });

    it('a slow upstream times out per attempt, is retried, and ends in 502', async () => {
      fake.failNext(path, { delayMs: 600 }, { delayMs: 600 });
      const started = Date.now();
      await expectUpstreamError(call(make({ timeoutMs: 150, maxRetries: 1 })));
      expect(calls()).toBe(2);
      expect(Date.now() - started).toBeLessThan(1500);
    });
  });

  describe('keyword research', () => {
    const research = (keyword: string, limit = 10, lang = 'en', loc = 2840) =>
      make().keywordResearch({ keyword, locationCode: loc, upstreamLanguage: lang, limit });

    it('sends related_keywords with seed and SERP info', async () => {
      await research('running shoes', 10, 'de', 2276);
      expect(fake.requests).toHaveLength(1);
      expect((fake.requests[0].body as unknown[])[0]).toEqual({
        keyword: 'running shoes',
        location_code: 2276,
        language_code: 'de',
        depth: 2,
        limit: 11,
        include_seed_keyword: true,
        include_serp_info: true,
      });
    });

    it('maps the seed metric set from seed_keyword_data (intent capitalized, trend 12 oldest first)', async () => {
      const r = await research('running shoes');
      expect(r.keyword).toBe('running shoes');
      expect(r.total_count).toBe(1234);
      expect(r.overview).toEqual({
        search_volume: 27100,
        cpc: 4.23,
        competition: 0.07,
        competition_level: 'LOW',
        difficulty: 57,
        intent: ['Commercial', 'Navigational', 'Transactional'],
        trend: [
          { y: 2023, m: 8, v: 1011 },
          { y: 2023, m: 9, v: 1010 },
          { y: 2023, m: 10, v: 1009 },
          { y: 2023, m: 11, v: 1008 },
          { y: 2023, m: 12, v: 1007 },
          { y: 2024, m: 1, v: 1006 },
          { y: 2024, m: 2, v: 1005 },
          { y: 2024, m: 3, v: 1004 },
          { y: 2024, m: 4, v: 1003 },
          { y: 2024, m: 5, v: 1002 },
          { y: 2024, m: 6, v: 1001 },
          { y: 2024, m: 7, v: 1000 },
        ],
        growth: { m: 22, q: -5, y: 0 },
        serp_features: ['organic', 'people_also_ask', 'related_searches'],
        bid_low: 0.92,
        bid_high: 7.55,
        avg_backlinks: 11475.1,
        avg_ref_domains: 884.2,
        comp_domain_rank: 787.5,
        se_results: 25270000000,
      });
    });

    it('maps related rows: seed item dropped, related ≤ 8, match_bucket, nulls', async () => {
      const r = await research('running shoes', 4);
      expect(r.related_keywords.map((k) => [k.keyword, k.match_bucket])).toEqual([
        ['how to clean running shoes', 'question'],
        ['running shoes for women', 'similar'],
        ['marathon training plan', 'related'],
        ['best running shoes brand?', 'question'],
      ]);
      expect(r.related_keywords[0].related).toEqual([
        'term 0',
        'term 1',
        'term 2',
        'term 3',
        'term 4',
        'term 5',
        'term 6',
        'term 7',
      ]);
      expect(r.related_keywords[2].related).toEqual([]);
      expect(r.related_keywords[2]).toMatchObject({
        search_volume: null,
        cpc: null,
        competition: null,
        competition_level: null,
        difficulty: null,
        intent: null,
        trend: null,
        growth: null,
        serp_features: null,
        bid_low: null,
        bid_high: null,
        avg_backlinks: null,
        avg_ref_domains: null,
        comp_domain_rank: null,
        se_results: null,
      });
      expect(r.related_keywords[1].search_volume).toBe(27100);
    });

    it('falls back to keyword_overview when seed_keyword_data is null', async () => {
      const r = await research('noseed shoes', 3);
      expect(fake.requests.map((q) => q.path)).toEqual([
        '/v3/dataforseo_labs/google/related_keywords/live',
        '/v3/dataforseo_labs/google/keyword_overview/live',
      ]);
      expect((fake.requests[1].body as unknown[])[0]).toEqual({
        keywords: ['noseed shoes'],
        location_code: 2840,
        language_code: 'en',
        include_serp_info: true,
      });
      expect(r.overview.search_volume).toBe(5400);
      expect(r.overview.cpc).toBe(1.5);
      expect(r.related_keywords).toHaveLength(3);
    });

    it('no seed data, no overview item and no related rows ("no data") is 502', async () => {
      await expectUpstreamError(research('nodata keyword'));
    });

    it('depth follows the limit (≈8 per level)', async () => {
      await research('a b', 8);
      await research('a b', 100);
      expect(
        fake.requests.map((r) => (r.body as Array<{ depth: number; limit: number }>)[0]),
      ).toEqual([
        expect.objectContaining({ depth: 1, limit: 9 }),
        expect.objectContaining({ depth: 3, limit: 101 }),
      ]);
    });
  });
});
