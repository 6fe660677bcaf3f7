import sentiment from 'wink-sentiment';

/**
 * The figures of AI-visibility scans (docs/ai-visibility-scans.md), pure functions over the
 * engines' answers: which tracked brands an answer mentions and cites, in which order, with
 * which sentiment, and the snapshot's rates and scores.
 */

/** A tracked brand: the project's own (`brand: true`, with its aliases) or a competitor. */
export interface TrackedBrand {
  name: string;
  domain: string;
  aliases?: string[];
  brand: boolean;
}

/** What an engine answered: its text and the URLs of its annotations and sources. */
export interface AnswerText {
  text: string;
  urls: string[];
}

/** One tracked brand in one answer (stored with the answer, `ai_visibility_answers.mentions`). */
export interface BrandInAnswer {
  name: string;
  domain: string;
  brand: boolean;
  /** 1-based rank among the tracked brands mentioned, in order of first mention. */
  position: number;
  cited: boolean;
}

/** What one answer says about the tracked brands. */
export interface AnswerReading {
  /** The brands mentioned, in order of first mention. */
  mentions: BrandInAnswer[];
  /** The project's brand is mentioned / cited (a cited brand may go unmentioned). */
  brandMentioned: boolean;
  brandCited: boolean;
  /** Competitor domains cited. */
  citedDomains: string[];
  /** Sentiment (-1..1) of each sentence mentioning the project's brand. */
  brandSentences: number[];
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A domain without scheme, `www.` and trailing dot, lower-case. */
export function bareDomain(domain: string): string {
  return domain
    .trim()
    .toLowerCase()
    .replace(/^[a-z]+:\/\//, '')
    .replace(/\/.*$/, '')
    .replace(/^www\./, '')
    .replace(/\.$/, '');
}

/**
 * The whole-word, case-insensitive pattern of a brand: its name, aliases and domain. A word
 * boundary is any character that is not a letter, digit or underscore (Unicode-aware).
 */
export function brandPattern(b: TrackedBrand): RegExp {
  const terms = [b.name, ...(b.aliases ?? []), bareDomain(b.domain)]
    .map((t) => t.trim())
    .filter((t) => t.length > 0)
    .sort((x, y) => y.length - x.length)
    .map(escape);
  return new RegExp(`(?<![\\p{L}\\p{N}_])(?:${terms.join('|')})(?![\\p{L}\\p{N}_])`, 'giu');
}

/** Index of the brand's first mention in the text, or null. */
export function firstMention(text: string, b: TrackedBrand): number | null {
  const m = brandPattern(b).exec(text);
  return m ? m.index : null;
}

/** The URL's host is the domain or one of its subdomains. Not a URL: false. */
export function urlOnDomain(url: string, domain: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase().replace(/\.$/, '');
  } catch {
    return false;
  }
  const d = bareDomain(domain);
  return d.length > 0 && (host === d || host.endsWith(`.${d}`));
}

/** The text's sentences (split after . ! ? and at line breaks). */
export function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** A sentence's sentiment from -1 to 1: wink-sentiment's normalizedScore (-5..5) over 5. */
export function sentenceSentiment(sentence: string): number {
  const n = sentiment(sentence).normalizedScore;
  return Math.max(-1, Math.min(1, n / 5));
}

/** Reads one answer against the tracked brands (the project's first, then its competitors). */
export function readAnswer(answer: AnswerText, brands: TrackedBrand[]): AnswerReading {
  const found = brands
    .map((b, i) => ({ b, i, at: firstMention(answer.text, b) }))
    .filter((f): f is { b: TrackedBrand; i: number; at: number } => f.at !== null)
    .sort((x, y) => x.at - y.at || x.i - y.i);
  const cited = (b: TrackedBrand) => answer.urls.some((u) => urlOnDomain(u, b.domain));
  const own = brands.find((b) => b.brand);
  const ownPattern = own ? brandPattern(own) : null;
  const brandSentences = ownPattern
    ? sentences(answer.text)
        .filter((s) => s.search(ownPattern) >= 0)
        .map(sentenceSentiment)
    : [];
  return {
    mentions: found.map((f, k) => ({
      name: f.b.name,
      domain: f.b.domain,
      brand: f.b.brand,
      position: k + 1,
      cited: cited(f.b),
    })),
    brandMentioned: found.some((f) => f.b.brand),
    brandCited: own ? cited(own) : false,
    citedDomains: brands.filter((b) => !b.brand && cited(b)).map((b) => b.domain),
    brandSentences,
  };
}

export interface CompetitorFigures {
  competitor_name: string;
  competitor_domain: string;
  mention_count: number;
  visibility_score: number;
  avg_position: number | null;
}

/** A scan's figures (the snapshot stored through the ingestion write path). */
export interface ScanFigures {
  prompts_evaluated: number;
  brand_mentions: number;
  competitor_mentions: number;
  mention_rate: number;
  citation_rate: number;
  avg_position: number | null;
  sentiment_avg: number | null;
  visibility_score: number;
  geo_score: number;
  competition_score: number;
  competitors: CompetitorFigures[];
}

const round = (x: number, digits: number) => {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
};
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
const pct = (part: number, whole: number) => (whole > 0 ? (100 * part) / whole : 0);

/**
 * visibility_score (0-100) = 0.6 × mention_rate + 0.25 × citation_rate + 15 / avg_position
 * (0 when never mentioned): being named often weighs most, being a source next, being named
 * first adds up to 15.
 */
export function visibilityScore(
  mentionRate: number,
  citationRate: number,
  avgPosition: number | null,
): number {
  const position = avgPosition === null ? 0 : 15 / Math.max(1, avgPosition);
  return round(Math.min(100, 0.6 * mentionRate + 0.25 * citationRate + position), 1);
}

/**
 * geo_score (0-100) = 0.5 × citation_rate + 0.3 × mention_rate + 0.2 × sentiment as a
 * percentage ((sentiment_avg + 1) × 50; 0 when the brand is never mentioned): how well the
 * brand's own pages feed the engine's answers, and how they speak of it.
 */
export function geoScore(
  mentionRate: number,
  citationRate: number,
  sentimentAvg: number | null,
): number {
  const tone = sentimentAvg === null ? 0 : (sentimentAvg + 1) * 50;
  return round(0.5 * citationRate + 0.3 * mentionRate + 0.2 * tone, 1);
}

/**
 * competition_score (0-100) = 0.7 × the brand's share of the tracked brands' mentions
 * (brand_mentions over brand_mentions + competitor_mentions) + 0.3 × the share of answers
 * naming any tracked brand that name the brand first; 0 when no tracked brand is named.
 */
export function competitionScore(
  brandMentions: number,
  competitorMentions: number,
  answersNamingAny: number,
  answersNamingBrandFirst: number,
): number {
  const share = pct(brandMentions, brandMentions + competitorMentions);
  const first = pct(answersNamingBrandFirst, answersNamingAny);
  return round(0.7 * share + 0.3 * first, 1);
}

/** The scan's figures from its answers, read against the project's brand and competitors. */
export function scanFigures(answers: AnswerText[], brands: TrackedBrand[]): ScanFigures {
  const readings = answers.map((a) => readAnswer(a, brands));
  const n = readings.length;
  const brandPositions = readings
    .flatMap((r) => r.mentions.filter((m) => m.brand))
    .map((m) => m.position);
  const brandMentions = brandPositions.length;
  const cited = readings.filter((r) => r.brandCited).length;
  const mentionRate = pct(brandMentions, n);
  const citationRate = pct(cited, n);
  const avgPosition = mean(brandPositions);
  const sentimentAvg = mean(readings.flatMap((r) => r.brandSentences));
  const competitors = brands
    .filter((b) => !b.brand)
    .map((b) => {
      const positions = readings
        .flatMap((r) => r.mentions.filter((m) => !m.brand && m.domain === b.domain))
        .map((m) => m.position);
      const citedBy = readings.filter((r) => r.citedDomains.includes(b.domain)).length;
      const avg = mean(positions);
      return {
        competitor_name: b.name,
        competitor_domain: b.domain,
        mention_count: positions.length,
        visibility_score: visibilityScore(pct(positions.length, n), pct(citedBy, n), avg),
        avg_position: avg === null ? null : round(avg, 2),
      };
    });
  const competitorMentions = competitors.reduce((a, c) => a + c.mention_count, 0);
  const namingAny = readings.filter((r) => r.mentions.length > 0).length;
  const brandFirst = readings.filter((r) => r.mentions[0]?.brand).length;
  return {
    prompts_evaluated: n,
    brand_mentions: brandMentions,
    competitor_mentions: competitorMentions,
    mention_rate: round(mentionRate, 2),
    citation_rate: round(citationRate, 2),
    avg_position: avgPosition === null ? null : round(avgPosition, 2),
    sentiment_avg: sentimentAvg === null ? null : round(sentimentAvg, 3),
    visibility_score: visibilityScore(mentionRate, citationRate, avgPosition),
    geo_score: geoScore(mentionRate, citationRate, sentimentAvg),
    competition_score: competitionScore(brandMentions, competitorMentions, namingAny, brandFirst),
    competitors,
  };
}
