import {
  TrackedBrand,
  competitionScore,
  firstMention,
  geoScore,
  readAnswer,
  scanFigures,
  sentenceSentiment,
  urlOnDomain,
  visibilityScore,
} from './ai-figures';

const brand: TrackedBrand = {
  name: 'Acme',
  domain: 'acme-tools.com',
  aliases: ['Acme Tools', 'ACMT'],
  brand: true,
};
const rival: TrackedBrand = { name: 'Bolt', domain: 'bolt.io', brand: false };
const other: TrackedBrand = { name: 'Crank Co', domain: 'crank.example', brand: false };
const brands = [brand, rival, other];

describe('AI-visibility figures', () => {
  it('mentions are whole words, case-insensitive, by name, alias or domain', () => {
    expect(firstMention('I like ACME a lot', brand)).toBe(7);
    expect(firstMention('Acmeville is a town; acmes are not', brand)).toBeNull();
    expect(firstMention('see acme-tools.com for more', brand)).toBe(4);
    expect(firstMention('the acmt drill', brand)).toBe(4);
    expect(firstMention('Try "acme tools".', brand)).toBe(5);
    expect(firstMention('Bolted together', rival)).toBeNull();
    expect(firstMention('Bolt, then', rival)).toBe(0);
    expect(firstMention('Crank Co.', other)).toBe(0);
    expect(firstMention('Crank Cola', other)).toBeNull();
  });

  it('cites a domain when a URL host is the domain or a subdomain, never a look-alike', () => {
    expect(urlOnDomain('https://acme-tools.com/x', 'acme-tools.com')).toBe(true);
    expect(urlOnDomain('https://www.acme-tools.com/x?utm_source=openai', 'acme-tools.com')).toBe(
      true,
    );
    expect(urlOnDomain('https://blog.shop.acme-tools.com', 'www.acme-tools.com')).toBe(true);
    expect(urlOnDomain('https://notacme-tools.com/', 'acme-tools.com')).toBe(false);
    expect(urlOnDomain('https://acme-tools.com.evil.example/', 'acme-tools.com')).toBe(false);
    expect(urlOnDomain('not a url', 'acme-tools.com')).toBe(false);
  });

  it('ranks the tracked brands in order of first mention, cited flags per brand', () => {
    const r = readAnswer(
      {
        text: 'Crank Co is fine. Bolt is good. Acme is great, and Bolt again.',
        urls: ['https://docs.acme-tools.com/a', 'https://news.example/b'],
      },
      brands,
    );
    expect(r.mentions.map((m) => [m.name, m.position, m.cited])).toEqual([
      ['Crank Co', 1, false],
      ['Bolt', 2, false],
      ['Acme', 3, true],
    ]);
    expect(r.brandMentioned).toBe(true);
    expect(r.brandCited).toBe(true);
    expect(r.brandSentences).toHaveLength(1);
  });

  it('sentiment is within -1..1, positive for praise and negative for criticism', () => {
    const good = sentenceSentiment('Acme is excellent, wonderful and amazing!');
    const bad = sentenceSentiment('Acme is terrible, awful and a disaster.');
    expect(good).toBeGreaterThan(0);
    expect(good).toBeLessThanOrEqual(1);
    expect(bad).toBeLessThan(0);
    expect(bad).toBeGreaterThanOrEqual(-1);
    expect(sentenceSentiment('Acme sells drills.')).toBe(0);
  });

  it('computes every figure of a scan; avg_position and sentiment are null when never mentioned', () => {
    const f = scanFigures(
      [
        { text: 'Acme is great. Bolt is okay.', urls: ['https://acme-tools.com/'] },
        { text: 'Bolt first, then acme-tools.com.', urls: [] },
        { text: 'Crank Co only.', urls: ['https://bolt.io/x'] },
        { text: 'Nothing relevant here.', urls: [] },
      ],
      brands,
    );
    expect(f.prompts_evaluated).toBe(4);
    expect(f.brand_mentions).toBe(2);
    expect(f.mention_rate).toBe(50);
    expect(f.citation_rate).toBe(25);
    expect(f.avg_position).toBe(1.5);
    expect(
      f.competitors.map((c) => [c.competitor_domain, c.mention_count, c.avg_position]),
    ).toEqual([
      ['bolt.io', 2, 1.5],
      ['crank.example', 1, 1],
    ]);
    expect(f.competitor_mentions).toBe(3);
    expect(f.sentiment_avg).toBeGreaterThan(0);
    expect(f.visibility_score).toBe(visibilityScore(50, 25, 1.5));
    expect(f.geo_score).toBe(geoScore(50, 25, f.sentiment_avg));
    // 3 answers name a tracked brand, 1 names the brand first.
    expect(f.competition_score).toBe(competitionScore(2, 3, 3, 1));

    const none = scanFigures([{ text: 'Bolt only.', urls: [] }], brands);
    expect(none.avg_position).toBeNull();
    expect(none.sentiment_avg).toBeNull();
    expect(none.mention_rate).toBe(0);
  });

  it('scores follow the documented formulas and stay within 0-100', () => {
    expect(visibilityScore(50, 25, 1.5)).toBe(46.3); // 30 + 6.25 + 10
    expect(visibilityScore(0, 0, null)).toBe(0);
    expect(visibilityScore(100, 100, 1)).toBe(100);
    expect(geoScore(50, 25, 0.5)).toBe(42.5); // 12.5 + 15 + 15
    expect(geoScore(0, 0, null)).toBe(0);
    expect(geoScore(100, 100, 1)).toBe(100);
    expect(competitionScore(2, 3, 3, 1)).toBe(38); // 0.7 × 40 + 0.3 × 33.3
    expect(competitionScore(0, 0, 0, 0)).toBe(0);
    expect(competitionScore(5, 0, 5, 5)).toBe(100);
  });
});
