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

export abstract class SeoDataProvider {
  abstract readonly name: ProviderName;

  /** The backlink profile of a domain. Throws ApiError UPSTREAM_ERROR when no data comes back. */
  abstract backlinkProfile(query: BacklinkQuery): Promise<BacklinkProfile>;

  /** The seed's metric set and its related keywords. Throws ApiError UPSTREAM_ERROR when no data comes back. */
  abstract keywordResearch(query: KeywordQuery): Promise<KeywordResearch>;
}
