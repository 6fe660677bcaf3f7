/**
 * The parts of DataForSEO's v3 wire format the adapter reads (docs/research.md, "The
 * DataForSEO wire the adapter relies on"). Almost everything is nullable upstream; unknown fields are ignored.
 */
export interface DfsTask<R> {
  id?: string;
  status_code: number;
  status_message?: string;
  cost?: number;
  result_count?: number;
  data?: Record<string, unknown>;
  result: R[] | null;
}

export interface DfsEnvelope<R> {
  version?: string;
  status_code: number;
  status_message?: string;
  cost?: number;
  tasks_count?: number;
  tasks_error?: number;
  tasks: Array<DfsTask<R>> | null;
}

type N = number | null | undefined;
type S = string | null | undefined;
type B = boolean | null | undefined;
type Counts = Record<string, number> | null | undefined;

export interface DfsBacklinksSummary {
  target?: S;
  first_seen?: S;
  lost_date?: S;
  rank?: N;
  backlinks?: N;
  backlinks_spam_score?: N;
  broken_backlinks?: N;
  broken_pages?: N;
  referring_domains?: N;
  referring_domains_nofollow?: N;
  referring_main_domains?: N;
  referring_pages?: N;
  referring_ips?: N;
  referring_subnets?: N;
  referring_links_tld?: Counts;
  referring_links_types?: Counts;
  referring_links_attributes?: Counts;
  referring_links_platform_types?: Counts;
  referring_links_countries?: Counts;
}

export interface DfsBacklinkItem {
  domain_from?: S;
  url_from?: S;
  url_from_https?: B;
  url_to?: S;
  tld_from?: S;
  is_new?: B;
  is_lost?: B;
  is_broken?: B;
  backlink_spam_score?: N;
  page_from_rank?: N;
  domain_from_rank?: N;
  domain_from_platform_type?: string[] | null;
  domain_from_ip?: S;
  domain_from_country?: S;
  page_from_title?: S;
  page_from_status_code?: N;
  first_seen?: S;
  last_seen?: S;
  item_type?: S;
  attributes?: string[] | null;
  dofollow?: B;
  anchor?: S;
  text_pre?: S;
  text_post?: S;
  semantic_location?: S;
  links_count?: N;
  url_to_status_code?: N;
  is_indirect_link?: B;
  ranked_keywords_info?: {
    page_from_keywords_count_top_3?: N;
    page_from_keywords_count_top_10?: N;
    page_from_keywords_count_top_100?: N;
  } | null;
}

export interface DfsBacklinksList {
  target?: S;
  total_count?: N;
  items_count?: N;
  items?: DfsBacklinkItem[] | null;
}

export interface DfsKeywordData {
  keyword?: S;
  keyword_info?: {
    competition?: N;
    competition_level?: S;
    cpc?: N;
    search_volume?: N;
    low_top_of_page_bid?: N;
    high_top_of_page_bid?: N;
    monthly_searches?: Array<{ year?: N; month?: N; search_volume?: N }> | null;
    search_volume_trend?: { monthly?: N; quarterly?: N; yearly?: N } | null;
  } | null;
  keyword_properties?: { keyword_difficulty?: N } | null;
  serp_info?: { serp_item_types?: string[] | null; se_results_count?: N } | null;
  avg_backlinks_info?: { backlinks?: N; referring_domains?: N; main_domain_rank?: N } | null;
  search_intent_info?: { main_intent?: S; foreign_intent?: string[] | null } | null;
}

export interface DfsRelatedItem {
  keyword_data?: DfsKeywordData | null;
  depth?: N;
  related_keywords?: string[] | null;
}

export interface DfsRelatedResult {
  seed_keyword?: S;
  seed_keyword_data?: DfsKeywordData | null;
  total_count?: N;
  items_count?: N;
  items?: DfsRelatedItem[] | null;
}

export interface DfsOverviewResult {
  items_count?: N;
  items?: DfsKeywordData[] | null;
}
