import { z } from 'zod';

/**
 * The research answers' shapes (spec "Backlink profile", keyword metric set), written once:
 * the provider port's types are inferred from them (seo-data-provider.ts), and the API names
 * them for its OpenAPI document (apps/api/src/backlinks/backlinks.schema.ts,
 * keyword-research/keyword-research.schema.ts, through `named`), where
 * test/foundation/openapi-answers.e2e-spec.ts holds them to real answers. Plain zod: no id
 * is registered here, so the document's order stays the API's.
 */

/** Related sub-keywords kept per related row (spec: up to 8). */
export const MAX_RELATED_PER_ROW = 8;

const count = z.int().nullable();
const num = z.number().nullable();
const text = z.string().nullable();
const flag = z
  .union([z.literal(0), z.literal(1)])
  .nullable()
  .meta({ description: '1 or 0 (null only when the provider gave no value)' });
const datetime = z
  .string()
  .nullable()
  .meta({ description: 'Datetime string as the provider dates it' });
const categories = z
  .record(z.string(), z.int())
  .meta({ description: 'Category name → count of referring links' });

/** Backlink profile overview (spec "Backlink profile"). */
export const BacklinkOverviewSchema = z.object({
  domain_rank: num,
  total_backlinks: count,
  referring_domains: count,
  referring_domains_nofollow: count,
  referring_main_domains: count,
  referring_pages: count,
  referring_ips: count,
  referring_subnets: count,
  dofollow_backlinks: count,
  broken_backlinks: count,
  broken_pages: count,
  spam_score: num,
  first_seen: datetime,
  lost_date: datetime.meta({ description: 'Datetime string, or null unless lost' }),
});

export const BacklinkInsightsSchema = z.object({
  referring_links_types: categories,
  referring_links_attributes: categories,
  referring_links_platform_types: categories,
  referring_links_tld: categories,
  referring_links_countries: categories,
  referring_subnets: count,
  referring_main_domains: count,
});

export const BacklinkSchema = z.object({
  domain_from: text.meta({ description: 'Linking site' }),
  url_from: text.meta({ description: 'Exact linking page' }),
  url_to: text.meta({ description: 'Linked page on the queried domain' }),
  anchor: text.meta({ description: 'Anchor text' }),
  dofollow: flag.meta({ description: '1 dofollow, 0 nofollow' }),
  spam_score: num.meta({ description: 'Spam score of the linking page, 0-100' }),
  domain_from_rank: num.meta({ description: 'Authority of the linking domain, 0-100' }),
  page_from_rank: num.meta({ description: 'Authority of the linking page, 0-100' }),
  is_new: flag,
  is_lost: flag,
  is_broken: flag,
  first_seen: datetime,
  last_seen: datetime,
  lost_date: datetime.meta({ description: 'null unless lost' }),
  platform_type: text.meta({ description: 'Platform of the linking site' }),
  country: text,
  tld_from: text.meta({ description: 'Top-level domain of the linking site' }),
  item_type: text.meta({ description: 'Link form, e.g. anchor, image, redirect (open-ended)' }),
  page_from_status_code: count.meta({ description: 'HTTP status of the linking page' }),
  url_to_status_code: count.meta({ description: 'HTTP status of the linked page' }),
  attributes: z.array(z.string()).meta({ description: 'Link rel attributes' }),
  kw_top3: count.meta({ description: 'Keywords the linking page ranks for in the top 3' }),
  kw_top10: count,
  kw_top100: count,
  semantic_location: text.meta({ description: 'Where in the page the link sits' }),
  page_from_title: text,
  domain_from_ip: text.meta({ description: 'IP address of the linking site' }),
  links_count: count,
  is_indirect_link: flag,
  url_from_https: flag,
  text_pre: text.meta({ description: 'Text before the anchor' }),
  text_post: text.meta({ description: 'Text after the anchor' }),
});

/** data of GET /api/v1/backlinks (spec "Backlink profile"). */
export const BacklinkProfileSchema = z.object({
  domain: z
    .string()
    .meta({ description: 'The queried domain, normalized', example: 'example.com' }),
  total_backlinks: count,
  referring_domains: count,
  page: z.int().meta({ description: 'Page of the backlink list, from 1' }),
  limit: z.int().meta({ description: 'Backlinks per page, 1-200' }),
  overview: BacklinkOverviewSchema,
  insights: BacklinkInsightsSchema,
  backlinks: z.array(BacklinkSchema),
});

const usd = z.number().nullable();

const trendPoint = z.object({
  y: z.int().meta({ description: 'Year' }),
  m: z.int().meta({ description: 'Month, 1-12' }),
  v: z.int().nullable().meta({ description: 'Searches that month' }),
});

/** Keyword metric set (spec): any field may be null when upstream data is unavailable. */
const metricFields = {
  search_volume: z.int().nullable().meta({ description: 'Average monthly searches' }),
  cpc: usd.meta({ description: 'Average cost per click, USD' }),
  competition: z.number().nullable().meta({ description: 'Paid competition, 0-1' }),
  competition_level: z
    .string()
    .nullable()
    .meta({ description: 'LOW, MEDIUM or HIGH', example: 'MEDIUM' }),
  difficulty: z
    .number()
    .nullable()
    .meta({ description: 'Organic difficulty 0-100; null if not yet computed' }),
  intent: z
    .array(z.string())
    .nullable()
    .meta({ description: 'Search intents, e.g. Commercial, Transactional' }),
  trend: z.array(trendPoint).nullable().meta({ description: 'The last 12 months' }),
  growth: z
    .object({
      m: z.number().nullable().meta({ description: 'Monthly volume change, percent' }),
      q: z.number().nullable().meta({ description: 'Quarterly volume change, percent' }),
      y: z.number().nullable().meta({ description: 'Yearly volume change, percent' }),
    })
    .nullable(),
  serp_features: z
    .array(z.string())
    .nullable()
    .meta({ description: 'SERP feature types, e.g. organic, people_also_ask' }),
  bid_low: usd.meta({ description: 'Top-of-page bid, low end, USD' }),
  bid_high: usd.meta({ description: 'Top-of-page bid, high end, USD' }),
  avg_backlinks: z.number().nullable().meta({ description: 'Average over the ranking pages' }),
  avg_ref_domains: z.number().nullable().meta({ description: 'Average over the ranking pages' }),
  comp_domain_rank: z
    .number()
    .nullable()
    .meta({ description: 'Average authority of the ranking pages, 0-1000' }),
  se_results: z.int().nullable().meta({ description: 'Total competing results' }),
};

export const KeywordMetricsSchema = z.object(metricFields);

export const MATCH_BUCKETS = ['similar', 'related', 'question'] as const;

export const RelatedKeywordSchema = z.object({
  keyword: z.string(),
  ...metricFields,
  related: z
    .array(z.string())
    .max(MAX_RELATED_PER_ROW)
    .meta({ description: `Up to ${MAX_RELATED_PER_ROW} sub-keywords` }),
  match_bucket: z.enum(MATCH_BUCKETS),
});

/** data of POST /api/v1/keyword-research. */
export const KeywordResearchSchema = z.object({
  keyword: z.string().meta({ description: 'The keyword as looked up (trimmed, lower case)' }),
  location_code: z.int().meta({ example: 2840 }),
  language_code: z.string().meta({
    description: 'The language applied (see /keyword-research/locations)',
    example: 'en',
  }),
  total_count: z.int().meta({ description: 'Related keywords the provider knows' }),
  overview: KeywordMetricsSchema,
  related_keywords: z.array(RelatedKeywordSchema),
});

export type BacklinkOverview = z.infer<typeof BacklinkOverviewSchema>;
export type BacklinkInsights = z.infer<typeof BacklinkInsightsSchema>;
/** 1 / 0 flags as the spec says; null only when upstream gave no value at all. */
export type Flag = z.infer<typeof flag>;
export type BacklinkItem = z.infer<typeof BacklinkSchema>;
export type BacklinkProfile = z.infer<typeof BacklinkProfileSchema>;
export type TrendPoint = z.infer<typeof trendPoint>;
export type KeywordMetricSet = z.infer<typeof KeywordMetricsSchema>;
export type MatchBucket = (typeof MATCH_BUCKETS)[number];
export type RelatedKeywordRow = z.infer<typeof RelatedKeywordSchema>;
/** data of POST /api/v1/keyword-research. */
export type KeywordResearchData = z.infer<typeof KeywordResearchSchema>;
/** What a provider answers for a keyword; the service adds location_code and language_code. */
export type KeywordResearch = Omit<KeywordResearchData, 'location_code' | 'language_code'>;
