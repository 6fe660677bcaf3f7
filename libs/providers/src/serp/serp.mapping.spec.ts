import type { DfsEnvelope } from '../dataforseo/dataforseo.types';
import type { DfsSerpResult } from './serp.types';
import { hostMatches, noResultsCheck, normalizeHost, serpCheck, serpDate } from './serp.mapping';
import sample from './testdata/task-get-advanced.sample.json';

/** The documented task_get/advanced answer (collectors-wire.md §2.10), as the adapter reads it. */
const result = (sample as unknown as DfsEnvelope<DfsSerpResult>).tasks![0].result![0];

describe('serpCheck on the documented sample answer (§2.10)', () => {
  it('with match "domain": the first organic item of the domain or a subdomain (shop., rank_group 2)', () => {
    const check = serpCheck(result, 'example.com', 'domain', '2000-01-01');
    expect(check.position).toBe(2);
    expect(check.landing_page).toBe('https://shop.example.com/collections/running-shoes');
    expect(check.check_date).toBe('2026-09-01');
  });

  it('with match "exact_host": www. is stripped, so www.example.com (rank_group 3) matches', () => {
    const check = serpCheck(result, 'example.com', 'exact_host', '2000-01-01');
    expect(check.position).toBe(3);
    expect(check.landing_page).toBe('https://www.example.com/blog/how-to-choose-running-shoes');
  });

  it('sets the feature booleans the SERP shows and only those', () => {
    const check = serpCheck(result, 'example.com', 'domain', '2000-01-01');
    expect(check).toMatchObject({
      featured_snippet: true,
      ai_overview: true,
      people_also_ask: true,
      local_pack: true,
      images: false,
      videos: false,
      shopping: false,
      knowledge_graph: false,
    });
  });

  it('sitelinks are those of the matched item: none for example.com, some for nike.com', () => {
    expect(serpCheck(result, 'example.com', 'domain', 'x').sitelinks).toBe(false);
    const nike = serpCheck(result, 'nike.com', 'domain', 'x');
    expect(nike).toMatchObject({ position: 1, sitelinks: true });
  });

  it('a domain cited only outside organic items (AI overview, PAA, local pack) is not ranked', () => {
    const runners = serpCheck(result, 'runnersworld.com', 'domain', 'x');
    expect(runners.position).toBeNull();
    expect(runners.landing_page).toBeNull();
    expect(serpCheck(result, 'downtownrunning.example', 'domain', 'x').position).toBeNull();
  });

  it('position is null (never 0) when the domain is not within the depth', () => {
    const check = serpCheck(result, 'unknown-site.org', 'domain', 'x');
    expect(check.position).toBeNull();
    expect(check.sitelinks).toBe(false);
  });

  it('shopping is set by shopping or popular_products; videos by video; knowledge_graph and images', () => {
    const items = [
      { type: 'popular_products', rank_group: 1 },
      { type: 'video', rank_group: 1 },
      { type: 'knowledge_graph', rank_group: 1 },
      { type: 'images', rank_group: 1 },
      { type: 'some_future_type', rank_group: 1 },
    ];
    const check = serpCheck({ datetime: null, items }, 'a.com', 'domain', '2026-02-03');
    expect(check).toMatchObject({
      shopping: true,
      videos: true,
      knowledge_graph: true,
      images: true,
    });
    expect(check.check_date).toBe('2026-02-03');
  });

  it('a result without items or with a null url and domain stays readable', () => {
    expect(serpCheck({}, 'a.com', 'domain', '2026-02-03')).toEqual(noResultsCheck('2026-02-03'));
    const check = serpCheck(
      { items: [{ type: 'organic', rank_group: 4, domain: null, url: 'https://blog.a.com/x' }] },
      'a.com',
      'domain',
      'd',
    );
    expect(check.position).toBe(4);
  });
});

describe('host and date helpers', () => {
  it('normalizes hosts like the project domain (scheme, www., port, path, case)', () => {
    expect(normalizeHost('HTTPS://WWW.Example.com:443/a?b')).toBe('example.com');
    expect(normalizeHost('shop.example.com')).toBe('shop.example.com');
  });

  it('a subdomain matches only with "domain"; a look-alike never', () => {
    expect(hostMatches('shop.example.com', 'example.com', 'domain')).toBe(true);
    expect(hostMatches('shop.example.com', 'example.com', 'exact_host')).toBe(false);
    expect(hostMatches('badexample.com', 'example.com', 'domain')).toBe(false);
  });

  it('check_date is the UTC date of the datetime, whatever its offset', () => {
    expect(serpDate('2026-09-01 23:30:00 -02:00')).toBe('2026-09-02');
    expect(serpDate('2026-09-01 06:03:27 +00:00')).toBe('2026-09-01');
    expect(serpDate('yesterday')).toBeNull();
  });
});
