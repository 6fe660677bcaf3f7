import { Logger, OnApplicationBootstrap } from '@nestjs/common';
import {
  BacklinkQuery,
  KeywordMetricsAnswer,
  KeywordMetricsQuery,
  KeywordQuery,
  SeoDataProvider,
} from '../seo-data-provider';
import {
  BacklinkInsights,
  BacklinkItem,
  BacklinkOverview,
  BacklinkProfile,
  KeywordMetricSet,
  KeywordResearch,
  MAX_RELATED_PER_ROW,
  RelatedKeywordRow,
} from '../seo-data.schema';
import { matchBucket, normalizeKeyword } from '../keyword-rules';
import { metrics as serviceMetrics, seededRandom } from '@app/core';

const pick = <T>(r: () => number, list: readonly T[]): T => list[Math.floor(r() * list.length)];
const int = (r: () => number, min: number, max: number) => min + Math.floor(r() * (max - min + 1));
const round = (n: number, digits: number) => Number(n.toFixed(digits));

/** Fixed reference time of sandbox data, so answers never change between runs. */
const BASE = Date.UTC(2026, 0, 15, 12, 0, 0);
const stamp = (r: () => number, maxDaysBack: number) => {
  const d = new Date(BASE - int(r, 0, maxDaysBack * 86_400) * 1000);
  return d.toISOString().slice(0, 19).replace('T', ' ');
};

const SITES = [
  'techblog',
  'newsdaily',
  'shopworld',
  'devforum',
  'wikihub',
  'travelnotes',
  'foodie',
  'marketpro',
];
const TLDS = ['com', 'org', 'net', 'io', 'co.uk', 'de'];
const PLATFORMS = [
  'cms',
  'blogs',
  'news',
  'ecommerce',
  'message-boards',
  'wikis',
  'organization',
  'unknown',
];
const COUNTRIES = ['US', 'GB', 'DE', 'FR', 'CA', 'AU', 'IN', 'WW'];
const ITEM_TYPES = ['anchor', 'anchor', 'anchor', 'image', 'redirect', 'canonical'];
const LOCATIONS = ['article', 'main', 'section', 'aside', 'footer', ''];

/** The profile overview: the figures drawn from the domain's generator `r`, after the totals. */
function sandboxOverview(
  r: () => number,
  total: number,
  refDomains: number,
  nofollow: number,
): BacklinkOverview {
  return {
    domain_rank: int(r, 5, 95),
    total_backlinks: total,
    referring_domains: refDomains,
    referring_domains_nofollow: Math.floor(refDomains / 5),
    referring_main_domains: Math.max(1, Math.floor(refDomains * 0.9)),
    referring_pages: Math.floor(total * 0.8),
    referring_ips: Math.max(1, Math.floor(refDomains * 0.85)),
    referring_subnets: Math.max(1, Math.floor(refDomains * 0.7)),
    dofollow_backlinks: total - nofollow,
    broken_backlinks: int(r, 0, Math.floor(total / 20)),
    broken_pages: int(r, 0, 30),
    spam_score: int(r, 0, 40),
    first_seen: stamp(r, 3000),
    lost_date: null,
  };
}

/** The profile insights: category counts that add up to the total (no randomness). */
function sandboxInsights(total: number, refDomains: number, nofollow: number): BacklinkInsights {
  const part = (share: number) => Math.floor(total * share);
  return {
    referring_links_types: {
      anchor: total - Math.floor(total / 10),
      image: Math.floor(total / 10),
    },
    referring_links_attributes: { nofollow, noopener: Math.floor(total / 4) },
    referring_links_platform_types: {
      cms: Math.floor(total / 2),
      blogs: Math.floor(total / 4),
      unknown: total - Math.floor(total / 2) - Math.floor(total / 4),
    },
    referring_links_tld: { com: part(0.6), org: part(0.2), net: total - part(0.6) - part(0.2) },
    referring_links_countries: {
      US: Math.floor(total / 2),
      GB: Math.floor(total / 5),
      '': total - Math.floor(total / 2) - Math.floor(total / 5),
    },
    referring_subnets: Math.max(1, Math.floor(refDomains * 0.7)),
    referring_main_domains: Math.max(1, Math.floor(refDomains * 0.9)),
  };
}

/**
 * Offline, deterministic data in the spec shapes: the same request always gives the same
 * answer. Used when no DataForSEO credentials are configured; responses say
 * meta.provider "sandbox".
 */
export class SandboxProvider extends SeoDataProvider implements OnApplicationBootstrap {
  readonly name = 'sandbox' as const;
  private readonly logger = new Logger('SeoDataProvider');

  onApplicationBootstrap(): void {
    this.logger.warn(
      'SEO data provider: SANDBOX. /backlinks and /keyword-research serve deterministic offline data ' +
        '(meta.provider "sandbox"). Set DATAFORSEO_LOGIN and DATAFORSEO_PASSWORD for live data.',
    );
  }

  async backlinkProfile(q: BacklinkQuery): Promise<BacklinkProfile> {
    // Counted like a real upstream call (no latency histogram: nothing leaves the process).
    serviceMetrics.upstreamCalls.inc({ provider: 'sandbox', endpoint: 'backlinks', outcome: 'ok' });
    const r = seededRandom(`backlinks|${q.domain}`);
    const total = int(r, 40, 5000);
    const refDomains = Math.max(1, Math.round(total / int(r, 3, 12)));
    const nofollow = int(r, 0, Math.floor(total / 3));
    const offset = (q.page - 1) * q.limit;
    const count = Math.max(0, Math.min(q.limit, total - offset));
    const backlinks: BacklinkItem[] = [];
    for (let i = 0; i < count; i++) backlinks.push(this.backlink(q.domain, offset + i));
    return {
      domain: q.domain,
      total_backlinks: total,
      referring_domains: refDomains,
      page: q.page,
      limit: q.limit,
      overview: sandboxOverview(r, total, refDomains, nofollow),
      insights: sandboxInsights(total, refDomains, nofollow),
      backlinks,
    };
  }

  private backlink(domain: string, index: number): BacklinkItem {
    const r = seededRandom(`backlink|${domain}|${index}`);
    const host = `${pick(r, SITES)}${index}.${pick(r, TLDS)}`;
    const lost = r() < 0.1;
    const dofollow = r() < 0.7;
    const lastSeen = stamp(r, 60);
    return {
      domain_from: host,
      url_from: `https://${host}/post-${int(r, 1, 9999)}`,
      url_to: `https://${domain}/${pick(r, ['', 'blog', 'pricing', 'about'])}`,
      anchor: pick(r, [domain, 'click here', 'read more', `${domain.split('.')[0]} review`]),
      dofollow: dofollow ? 1 : 0,
      spam_score: int(r, 0, 60),
      domain_from_rank: int(r, 0, 100),
      page_from_rank: int(r, 0, 100),
      is_new: r() < 0.15 ? 1 : 0,
      is_lost: lost ? 1 : 0,
      is_broken: r() < 0.05 ? 1 : 0,
      first_seen: stamp(r, 2000),
      last_seen: lastSeen,
      lost_date: lost ? lastSeen : null,
      platform_type: pick(r, PLATFORMS),
      country: pick(r, COUNTRIES),
      tld_from: host.split('.').slice(1).join('.'),
      item_type: pick(r, ITEM_TYPES),
      page_from_status_code: 200,
      url_to_status_code: r() < 0.05 ? 404 : 200,
      attributes: dofollow ? [] : ['nofollow'],
      kw_top3: int(r, 0, 20),
      kw_top10: int(r, 20, 100),
      kw_top100: int(r, 100, 2000),
      semantic_location: pick(r, LOCATIONS) || null,
      page_from_title: `Post ${index} on ${host}`,
      domain_from_ip: `${int(r, 11, 223)}.${int(r, 0, 255)}.${int(r, 0, 255)}.${int(r, 1, 254)}`,
      links_count: int(r, 1, 3),
      is_indirect_link: r() < 0.05 ? 1 : 0,
      url_from_https: 1,
      text_pre: 'As described by',
      text_post: 'in a recent article.',
    };
  }

  async keywordResearch(q: KeywordQuery): Promise<KeywordResearch> {
    serviceMetrics.upstreamCalls.inc({
      provider: 'sandbox',
      endpoint: 'keyword_research',
      outcome: 'ok',
    });
    const seedKey = `${q.keyword}|${q.locationCode}|${q.upstreamLanguage}`;
    const overview = this.metrics(seededRandom(`kw|${seedKey}`), 1);
    const r = seededRandom(`rel|${seedKey}`);
    const total = int(r, q.limit, q.limit + 400);
    const rows: RelatedKeywordRow[] = [];
    const patterns = [
      (k: string) => `best ${k}`,
      (k: string) => `how to use ${k}`,
      (k: string) => `${k} alternatives`,
      (k: string) => `what is ${k}`,
      (k: string) => `${k} pricing`,
      (k: string) => `cheap ${k}`,
      (k: string) => `${k} near me`,
      (k: string) => `is ${k} worth it`,
      (k: string) => `${k} review`,
      (k: string) => `free ${k}`,
    ];
    for (let i = 0; i < q.limit; i++) {
      const base = patterns[i % patterns.length](q.keyword);
      const keyword = i < patterns.length ? base : `${base} ${Math.floor(i / patterns.length) + 1}`;
      const rr = seededRandom(`row|${seedKey}|${i}`);
      const related = Array.from(
        { length: int(rr, 3, MAX_RELATED_PER_ROW) },
        (_, j) =>
          `${keyword} ${['online', 'guide', 'tips', 'list', 'example', 'app', 'tool', '2026'][j]}`,
      );
      rows.push({
        keyword,
        ...this.metrics(rr, 0.3),
        related,
        match_bucket: matchBucket(keyword, q.keyword),
      });
    }
    return { keyword: q.keyword, total_count: total, overview, related_keywords: rows };
  }

  /** The same figures as the keyword's keyword-research overview (same seed), free. */
  keywordMetrics(q: KeywordMetricsQuery): Promise<KeywordMetricsAnswer> {
    const byKeyword: KeywordMetricsAnswer['byKeyword'] = new Map();
    for (const raw of q.keywords) {
      const keyword = normalizeKeyword(raw);
      const m = this.metrics(
        seededRandom(`kw|${keyword}|${q.locationCode}|${q.upstreamLanguage}`),
        1,
      );
      byKeyword.set(keyword, {
        difficulty: m.difficulty,
        search_volume: m.search_volume,
        cpc: m.cpc,
      });
    }
    return Promise.resolve({ byKeyword, cost: 0 });
  }

  private metrics(r: () => number, scale: number): KeywordMetricSet {
    const volume = Math.round(int(r, 50, 60_000) * scale) || 10;
    const competition = round(r(), 2);
    const months: Array<{ y: number; m: number; v: number }> = [];
    for (let i = 11; i >= 0; i--) {
      const d = new Date(Date.UTC(2025, 11 - i, 1));
      months.push({
        y: d.getUTCFullYear(),
        m: d.getUTCMonth() + 1,
        v: Math.round(volume * (0.7 + r() * 0.6)),
      });
    }
    const low = round(0.2 + r() * 3, 2);
    return {
      search_volume: volume,
      cpc: round(0.1 + r() * 8, 2),
      competition,
      competition_level: competition < 0.34 ? 'LOW' : competition < 0.67 ? 'MEDIUM' : 'HIGH',
      difficulty: int(r, 1, 95),
      intent: [pick(r, ['Informational', 'Commercial', 'Transactional', 'Navigational'])],
      trend: months,
      growth: { m: int(r, -30, 30), q: int(r, -40, 40), y: int(r, -60, 90) },
      serp_features: [
        'organic',
        ...(r() < 0.6 ? ['people_also_ask'] : []),
        ...(r() < 0.4 ? ['related_searches'] : []),
      ],
      bid_low: low,
      bid_high: round(low + r() * 6, 2),
      avg_backlinks: round(r() * 20_000, 1),
      avg_ref_domains: round(r() * 1_500, 1),
      comp_domain_rank: round(r() * 1000, 1),
      se_results: int(r, 10_000, 900_000_000),
    };
  }
}
