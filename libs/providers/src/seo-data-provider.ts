/**
 * The outside data provider port. Adapters (dataforseo, sandbox) return our spec shapes;
 * nothing upstream-specific leaks past this file's types.
 */
type ProviderName = 'dataforseo' | 'sandbox';

export interface BacklinkQuery {
  /** Normalized registrable-looking host: lower case, no scheme, no www., no path. */
  domain: string;
  page: number;
  limit: number;
}

export interface BacklinkOverview {
  domain_rank: number | null;
  total_backlinks: number | null;
  referring_domains: number | null;
  referring_domains_nofollow: number | null;
  referring_main_domains: number | null;
  referring_pages: number | null;
  referring_ips: number | null;
  referring_subnets: number | null;
  dofollow_backlinks: number | null;
  broken_backlinks: number | null;
  broken_pages: number | null;
  spam_score: number | null;
  first_seen: string | null;
  lost_date: string | null;
}

export interface BacklinkInsights {
  referring_links_types: Record<string, number>;
  referring_links_attributes: Record<string, number>;
  referring_links_platform_types: Record<string, number>;
  referring_links_tld: Record<string, number>;
  referring_links_countries: Record<string, number>;
  referring_subnets: number | null;
  referring_main_domains: number | null;
}

/** 1 / 0 flags as the spec says; null only when upstream gave no value at all. */
export type Flag = 0 | 1 | null;

export interface BacklinkItem {
  domain_from: string | null;
  url_from: string | null;
  url_to: string | null;
  anchor: string | null;
  dofollow: Flag;
  spam_score: number | null;
  domain_from_rank: number | null;
  page_from_rank: number | null;
  is_new: Flag;
  is_lost: Flag;
  is_broken: Flag;
  first_seen: string | null;
  last_seen: string | null;
  lost_date: string | null;
  platform_type: string | null;
  country: string | null;
  tld_from: string | null;
  item_type: string | null;
  page_from_status_code: number | null;
  url_to_status_code: number | null;
  attributes: string[];
  kw_top3: number | null;
  kw_top10: number | null;
  kw_top100: number | null;
  semantic_location: string | null;
  page_from_title: string | null;
  domain_from_ip: string | null;
  links_count: number | null;
  is_indirect_link: Flag;
  url_from_https: Flag;
  text_pre: string | null;
  text_post: string | null;
}

export interface BacklinkProfile {
  domain: string;
  total_backlinks: number | null;
  referring_domains: number | null;
  page: number;
  limit: number;
  overview: BacklinkOverview;
  insights: BacklinkInsights;
  backlinks: BacklinkItem[];
}

export interface KeywordQuery {
  /** Trimmed, lower-cased, inner whitespace collapsed. */
  keyword: string;
  locationCode: number;
  /** The language code to send upstream (e.g. en, zh-TW): already resolved for the market. */
  upstreamLanguage: string;
  /** Most related rows wanted (1-100). */
  limit: number;
}

export interface TrendPoint {
  y: number;
  m: number;
  v: number | null;
}

export interface KeywordMetricSet {
  search_volume: number | null;
  cpc: number | null;
  competition: number | null;
  competition_level: string | null;
  difficulty: number | null;
  intent: string[] | null;
  trend: TrendPoint[] | null;
  growth: { m: number | null; q: number | null; y: number | null } | null;
  serp_features: string[] | null;
  bid_low: number | null;
  bid_high: number | null;
  avg_backlinks: number | null;
  avg_ref_domains: number | null;
  comp_domain_rank: number | null;
  se_results: number | null;
}

export type MatchBucket = 'similar' | 'related' | 'question';

export type RelatedKeywordRow = { keyword: string } & KeywordMetricSet & {
    related: string[];
    match_bucket: MatchBucket;
  };

/** What a provider answers for a keyword; the service adds location_code and language_code. */
export interface KeywordResearch {
  keyword: string;
  total_count: number;
  overview: KeywordMetricSet;
  related_keywords: RelatedKeywordRow[];
}

export abstract class SeoDataProvider {
  abstract readonly name: ProviderName;

  /** The backlink profile of a domain. Throws ApiError UPSTREAM_ERROR when no data comes back. */
  abstract backlinkProfile(query: BacklinkQuery): Promise<BacklinkProfile>;

  /** The seed's metric set and its related keywords. Throws ApiError UPSTREAM_ERROR when no data comes back. */
  abstract keywordResearch(query: KeywordQuery): Promise<KeywordResearch>;
}

/** Related sub-keywords kept per related row (spec: up to 8). */
export const MAX_RELATED_PER_ROW = 8;
