import {
  backlinkItem,
  relatedItems,
  summary,
} from '../../../../test/fixtures/fake-dataforseo-data';
import {
  BacklinkProfileSchema,
  KeywordMetricsSchema,
  RelatedKeywordSchema,
} from '../seo-data.schema';
import {
  isEmptySummary,
  mapBacklinkProfile,
  mapKeywordData,
  mapRelatedItems,
  upstreamDate,
} from './dataforseo.mapping';
import { relatedDepth } from './dataforseo.provider';

describe('DataForSEO mapping helpers', () => {
  it('dates: "YYYY-MM-DD HH:MM:SS +00:00" → "YYYY-MM-DD HH:MM:SS" (UTC)', () => {
    expect(upstreamDate('2019-11-15 12:57:46 +00:00')).toBe('2019-11-15 12:57:46');
    expect(upstreamDate('2019-11-15 12:57:46')).toBe('2019-11-15 12:57:46');
    expect(upstreamDate('2019-11-15 12:57:46 +02:00')).toBe('2019-11-15 10:57:46');
    expect(upstreamDate(null)).toBeNull();
    expect(upstreamDate('yesterday')).toBeNull();
  });

  it('an empty summary is "no data"', () => {
    expect(isEmptySummary(null)).toBe(true);
    expect(isEmptySummary({})).toBe(true);
    expect(isEmptySummary({ backlinks: 0, referring_domains: 0, first_seen: null })).toBe(true);
    expect(isEmptySummary({ backlinks: 3 })).toBe(false);
  });

  it('a keyword with no data maps to all nulls', () => {
    const m = mapKeywordData(null);
    expect(Object.values(m).every((v) => v === null)).toBe(true);
    expect(Object.keys(m)).toHaveLength(15);
  });

  it('intent: main then foreign, capitalized, no duplicates', () => {
    const m = mapKeywordData({
      search_intent_info: {
        main_intent: 'commercial',
        foreign_intent: ['Commercial', 'transactional'],
      },
    });
    expect(m.intent).toEqual(['Commercial', 'Transactional']);
  });

  it('related rows drop the seed and keep at most limit rows and 8 sub-keywords', () => {
    const items = [
      { depth: 0, keyword_data: { keyword: 'seed' }, related_keywords: [] },
      { depth: 1, keyword_data: { keyword: 'Seed' }, related_keywords: [] },
      {
        depth: 1,
        keyword_data: { keyword: 'a' },
        related_keywords: Array.from({ length: 12 }, (_, i) => `r${i}`),
      },
      { depth: 1, keyword_data: null, related_keywords: [] },
      { depth: 1, keyword_data: { keyword: 'b' }, related_keywords: null },
      { depth: 1, keyword_data: { keyword: 'c' }, related_keywords: null },
    ];
    const rows = mapRelatedItems(items, 'seed', 2);
    expect(rows.map((r) => r.keyword)).toEqual(['a', 'b']);
    expect(rows[0].related).toHaveLength(8);
    expect(rows[1].related).toEqual([]);
  });

  it('related depth follows the limit', () => {
    expect(relatedDepth(1)).toBe(1);
    expect(relatedDepth(8)).toBe(1);
    expect(relatedDepth(9)).toBe(2);
    expect(relatedDepth(72)).toBe(2);
    expect(relatedDepth(100)).toBe(3);
  });

  it('maps upstream answers into the schemas the types come from (every member, nothing more)', () => {
    const rank = (r: number) => r / 10;
    const items = [0, 1, 2].map((i) => backlinkItem('example.com', i, rank));
    const profile = mapBacklinkProfile(
      { domain: 'example.com', page: 1, limit: 10 },
      summary('example.com', rank),
      { items },
    );
    expect(profile.backlinks).toHaveLength(3);
    expect(profile.backlinks[1]).toMatchObject({ is_lost: 1, dofollow: 0, attributes: [] });
    expect(BacklinkProfileSchema.parse(profile)).toEqual(profile);
    const empty = mapBacklinkProfile({ domain: 'example.com', page: 1, limit: 10 }, {}, null);
    expect(BacklinkProfileSchema.parse(empty)).toEqual(empty);
    for (const m of [mapKeywordData(null), mapKeywordData(relatedItems('seed')[1].keyword_data)])
      expect(KeywordMetricsSchema.parse(m)).toEqual(m);
    const rows = mapRelatedItems(relatedItems('seed'), 'seed', 100);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(RelatedKeywordSchema.parse(row)).toEqual(row);
  });
});
