import { z } from 'zod';
import { named, successEnvelope } from '@app/gateway';
import { MAX_RELATED_PER_ROW } from '@app/providers';
import { researchMeta } from '../research/research.schema';

const usd = z.number().nullable();

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
  trend: z
    .array(
      z.object({
        y: z.int().meta({ description: 'Year' }),
        m: z.int().meta({ description: 'Month, 1-12' }),
        v: z.int().nullable().meta({ description: 'Searches that month' }),
      }),
    )
    .nullable()
    .meta({ description: 'The last 12 months' }),
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

const KeywordMetricsSchema = named('KeywordMetrics', z.object(metricFields));

const RelatedKeywordSchema = named(
  'RelatedKeyword',
  z.object({
    keyword: z.string(),
    ...metricFields,
    related: z
      .array(z.string())
      .max(MAX_RELATED_PER_ROW)
      .meta({ description: `Up to ${MAX_RELATED_PER_ROW} sub-keywords` }),
    match_bucket: z.enum(['similar', 'related', 'question']),
  }),
);

/** data of POST /api/v1/keyword-research. */
const KeywordResearchSchema = named(
  'KeywordResearch',
  z.object({
    keyword: z.string().meta({ description: 'The keyword as looked up (trimmed, lower case)' }),
    location_code: z.int().meta({ example: 2840 }),
    language_code: z.string().meta({
      description: 'The language applied (see /keyword-research/locations)',
      example: 'en',
    }),
    total_count: z.int().meta({ description: 'Related keywords the provider knows' }),
    overview: KeywordMetricsSchema,
    related_keywords: z.array(RelatedKeywordSchema),
  }),
);

export const KeywordResearchAnswerSchema = successEnvelope(
  'KeywordResearchAnswer',
  KeywordResearchSchema,
  researchMeta,
);

/** data of GET /api/v1/keyword-research/locations. */
const LocationsSchema = named(
  'Locations',
  z.object({
    locations: z.array(
      z.object({
        location_code: z.int().meta({ example: 2840 }),
        location_name: z.string().meta({ example: 'United States' }),
        country_iso: z.string().meta({ example: 'US' }),
        language_code: z.string().meta({ example: 'en' }),
      }),
    ),
    count: z.int(),
    note: z.string(),
  }),
);

export const LocationsAnswerSchema = successEnvelope('LocationsAnswer', LocationsSchema);
