import { z } from 'zod';
import { named, successEnvelope } from '@app/gateway';
import { researchMeta } from '../research/research.schema';

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
const BacklinkOverviewSchema = named(
  'BacklinkOverview',
  z.object({
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
  }),
);

const BacklinkInsightsSchema = named(
  'BacklinkInsights',
  z.object({
    referring_links_types: categories,
    referring_links_attributes: categories,
    referring_links_platform_types: categories,
    referring_links_tld: categories,
    referring_links_countries: categories,
    referring_subnets: count,
    referring_main_domains: count,
  }),
);

const BacklinkSchema = named(
  'Backlink',
  z.object({
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
  }),
);

/** data of GET /api/v1/backlinks (spec "Backlink profile"). */
const BacklinkProfileSchema = named(
  'BacklinkProfile',
  z.object({
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
  }),
);

export const BacklinksAnswerSchema = successEnvelope(
  'BacklinksAnswer',
  BacklinkProfileSchema,
  researchMeta,
);
