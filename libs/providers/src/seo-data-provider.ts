import type { BacklinkProfile, KeywordResearch } from './seo-data.schema';

/**
 * The outside data provider port. Adapters (dataforseo, sandbox) return our spec shapes, whose
 * types are inferred from the answer schemas (seo-data.schema.ts); nothing upstream-specific
 * leaks past this file's types.
 */
type ProviderName = 'dataforseo' | 'sandbox';

export interface BacklinkQuery {
  /** Normalized registrable-looking host: lower case, no scheme, no www., no path. */
  domain: string;
  page: number;
  limit: number;
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

/** Keyword metrics of several keywords of one market (tracked keywords: docs/rank-collection.md). */
export interface KeywordMetricsQuery {
  /** As tracked (compared case-insensitively, inner spaces collapsed); at most 700. */
  keywords: string[];
  locationCode: number;
  upstreamLanguage: string;
}

export interface KeywordMetrics {
  difficulty: number | null;
  search_volume: number | null;
  cpc: number | null;
}

export interface KeywordMetricsAnswer {
  /** By normalized keyword (normalizeKeyword); a keyword without data is absent. */
  byKeyword: Map<string, KeywordMetrics>;
  /** USD the provider charged for the call. */
  cost: number;
}

/** The provider endpoint keyword metrics are charged under (provider-spend ledger). */
export const KEYWORD_OVERVIEW_ENDPOINT = 'dataforseo_labs/google/keyword_overview';

/** Most keywords in one keyword_overview call. */
export const KEYWORD_OVERVIEW_BATCH = 700;

export abstract class SeoDataProvider {
  abstract readonly name: ProviderName;

  /** The backlink profile of a domain. Throws ApiError UPSTREAM_ERROR when no data comes back. */
  abstract backlinkProfile(query: BacklinkQuery): Promise<BacklinkProfile>;

  /** The seed's metric set and its related keywords. Throws ApiError UPSTREAM_ERROR when no data comes back. */
  abstract keywordResearch(query: KeywordQuery): Promise<KeywordResearch>;

  /** Difficulty, volume and cpc of up to 700 keywords of one market. Throws ApiError UPSTREAM_ERROR when the call fails. */
  abstract keywordMetrics(query: KeywordMetricsQuery): Promise<KeywordMetricsAnswer>;
}
