import { matchBucket, normalizeKeyword } from './keyword-rules';
import { MARKETS, applyLanguage, findMarket, locationRecord, requestLanguage } from './markets';

describe('match_bucket (our rule)', () => {
  it.each([
    ['how to clean running shoes', 'question'],
    ['What are running shoes', 'question'],
    ['running shoes for flat feet?', 'question'],
    ['is running good', 'question'],
    ['running shoes for women', 'similar'],
    ['women shoes running', 'similar'],
    ['marathon training', 'related'],
    ['running shoe', 'related'],
    ['showing', 'related'],
  ])('%s → %s', (kw, bucket) => {
    expect(matchBucket(kw, 'running shoes')).toBe(bucket);
  });

  it('normalizes keywords: trim, lower case, single spaces', () => {
    expect(normalizeKeyword('  Running \t  SHOES ')).toBe('running shoes');
  });
});

describe('markets', () => {
  it('has the 94 Labs countries, each 2000 + ISO numeric, no duplicates', () => {
    expect(MARKETS).toHaveLength(94);
    expect(new Set(MARKETS.map((m) => m.location_code)).size).toBe(94);
    expect(new Set(MARKETS.map((m) => m.country_iso)).size).toBe(94);
    expect(findMarket(2840)?.country_iso).toBe('US');
    expect(findMarket(2756)?.country_iso).toBe('CH'); // not Germany
    expect(findMarket(2643)).toBeUndefined(); // Russia is not offered
  });

  it('record language: primary language if one of ours, else en', () => {
    expect(locationRecord(findMarket(2124)!).language_code).toBe('en');
    expect(locationRecord(findMarket(2056)!).language_code).toBe('nl');
    expect(locationRecord(findMarket(2784)!).language_code).toBe('en');
    expect(locationRecord(findMarket(2344)!).language_code).toBe('zh');
    expect(locationRecord(findMarket(2578)!).language_code).toBe('en'); // nb
  });

  it('request language: ours (case, region ignored) else en', () => {
    expect(requestLanguage(undefined)).toBe('en');
    expect(requestLanguage('DE')).toBe('de');
    expect(requestLanguage('pt-BR')).toBe('pt');
    expect(requestLanguage('zh_TW')).toBe('zh');
    expect(requestLanguage('klingon')).toBe('en');
    expect(requestLanguage('ar')).toBe('en');
  });

  it('applied language: requested if offered, else the listed market language, else the primary', () => {
    expect(applyLanguage(findMarket(2840)!, 'es')).toEqual({ code: 'es', upstream: 'es' });
    expect(applyLanguage(findMarket(2840)!, 'de')).toEqual({ code: 'en', upstream: 'en' });
    expect(applyLanguage(findMarket(2392)!, 'en')).toEqual({ code: 'ja', upstream: 'ja' });
    expect(applyLanguage(findMarket(2158)!, 'zh')).toEqual({ code: 'zh', upstream: 'zh-TW' });
    expect(applyLanguage(findMarket(2702)!, 'zh')).toEqual({ code: 'zh', upstream: 'zh-CN' });
    expect(applyLanguage(findMarket(2008)!, 'en')).toEqual({ code: 'sq', upstream: 'sq' });
  });
});
