import { recordTimestamp } from '@app/core';
import { BacklinkQuery } from '../seo-data-provider';
import {
  BacklinkInsights,
  BacklinkItem,
  BacklinkOverview,
  BacklinkProfile,
  Flag,
  KeywordMetricSet,
  MAX_RELATED_PER_ROW,
  RelatedKeywordRow,
  TrendPoint,
} from '../seo-data.schema';
import { matchBucket, normalizeKeyword } from '../keyword-rules';
import {
  DfsBacklinkItem,
  DfsBacklinksList,
  DfsBacklinksSummary,
  DfsKeywordData,
  DfsRelatedItem,
} from './dataforseo.types';

/**
 * DataForSEO answers → our spec shapes (docs/research.md: the field mapping in "The
 * DataForSEO wire the adapter relies on", every choice in "Mapping choices"). Pure functions.
 */

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const flag = (v: unknown): Flag => (v === true ? 1 : v === false ? 0 : null);

const UPSTREAM_DATE = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(?: ?([+-])(\d{2}):?(\d{2}))?$/;

/** "2019-11-15 12:57:46 +00:00" → "2019-11-15 12:57:46" (UTC; other offsets converted). */
export function upstreamDate(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const m = UPSTREAM_DATE.exec(v.trim());
  if (!m) return null;
  if (!m[3] || (m[4] === '00' && m[5] === '00')) return `${m[1]} ${m[2]}`;
  const d = new Date(`${m[1]}T${m[2]}${m[3]}${m[4]}:${m[5]}`);
  return Number.isNaN(d.getTime()) ? null : recordTimestamp(d);
}

function counts(v: unknown): Record<string, number> {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return {};
  const out: Record<string, number> = {};
  for (const [k, n] of Object.entries(v as Record<string, unknown>)) {
    if (typeof n === 'number' && Number.isFinite(n)) out[k] = n;
  }
  return out;
}

/** A summary with nothing in it: no backlink count, or no backlinks and never seen. */
export function isEmptySummary(s: DfsBacklinksSummary | null | undefined): boolean {
  if (!s || typeof s !== 'object') return true;
  const backlinks = num(s.backlinks);
  if (backlinks === null) return true;
  return backlinks === 0 && !s.first_seen && !num(s.referring_domains);
}

/** A backlink's first members: the link itself, its flags and dates. */
function mapLink(i: DfsBacklinkItem) {
  const lost = flag(i.is_lost);
  return {
    domain_from: str(i.domain_from),
    url_from: str(i.url_from),
    url_to: str(i.url_to),
    anchor: str(i.anchor),
    dofollow: flag(i.dofollow),
    spam_score: num(i.backlink_spam_score),
    domain_from_rank: num(i.domain_from_rank),
    page_from_rank: num(i.page_from_rank),
    is_new: flag(i.is_new),
    is_lost: lost,
    is_broken: flag(i.is_broken),
    first_seen: upstreamDate(i.first_seen),
    last_seen: upstreamDate(i.last_seen),
    // Items carry no lost date: the last time the link was seen, for lost links only.
    lost_date: lost === 1 ? upstreamDate(i.last_seen) : null,
  };
}

/** A backlink's remaining members: the linking site and page, and the text around the link. */
function mapLinkSource(i: DfsBacklinkItem) {
  const kw = i.ranked_keywords_info ?? null;
  return {
    platform_type: Array.isArray(i.domain_from_platform_type)
      ? (str(i.domain_from_platform_type[0]) ?? null)
      : null,
    country: str(i.domain_from_country),
    tld_from: str(i.tld_from),
    item_type: str(i.item_type),
    page_from_status_code: num(i.page_from_status_code),
    url_to_status_code: num(i.url_to_status_code),
    attributes: Array.isArray(i.attributes)
      ? i.attributes.filter((a): a is string => typeof a === 'string')
      : [],
    kw_top3: num(kw?.page_from_keywords_count_top_3),
    kw_top10: num(kw?.page_from_keywords_count_top_10),
    kw_top100: num(kw?.page_from_keywords_count_top_100),
    semantic_location: str(i.semantic_location),
    page_from_title: str(i.page_from_title),
    domain_from_ip: str(i.domain_from_ip),
    links_count: num(i.links_count),
    is_indirect_link: flag(i.is_indirect_link),
    url_from_https: flag(i.url_from_https),
    text_pre: str(i.text_pre),
    text_post: str(i.text_post),
  };
}

/** One backlinks/live item → a backlink, members in the spec's order. */
function mapBacklinkItem(i: DfsBacklinkItem): BacklinkItem {
  return { ...mapLink(i), ...mapLinkSource(i) };
}

function mapOverview(s: DfsBacklinksSummary): BacklinkOverview {
  const backlinks = num(s.backlinks);
  const nofollow = counts(s.referring_links_attributes).nofollow ?? 0;
  return {
    domain_rank: num(s.rank),
    total_backlinks: backlinks,
    referring_domains: num(s.referring_domains),
    referring_domains_nofollow: num(s.referring_domains_nofollow),
    referring_main_domains: num(s.referring_main_domains),
    referring_pages: num(s.referring_pages),
    referring_ips: num(s.referring_ips),
    referring_subnets: num(s.referring_subnets),
    // Not in the summary: all backlinks minus the nofollow ones (never below 0).
    dofollow_backlinks: backlinks === null ? null : Math.max(0, backlinks - nofollow),
    broken_backlinks: num(s.broken_backlinks),
    broken_pages: num(s.broken_pages),
    spam_score: num(s.backlinks_spam_score),
    first_seen: upstreamDate(s.first_seen),
    lost_date: upstreamDate(s.lost_date),
  };
}

function mapInsights(s: DfsBacklinksSummary): BacklinkInsights {
  return {
    referring_links_types: counts(s.referring_links_types),
    referring_links_attributes: counts(s.referring_links_attributes),
    referring_links_platform_types: counts(s.referring_links_platform_types),
    referring_links_tld: counts(s.referring_links_tld),
    referring_links_countries: counts(s.referring_links_countries),
    referring_subnets: num(s.referring_subnets),
    referring_main_domains: num(s.referring_main_domains),
  };
}

/** The profile from summary/live (result[0]) and backlinks/live (result[0], may be null). */
export function mapBacklinkProfile(
  q: BacklinkQuery,
  s: DfsBacklinksSummary,
  list: DfsBacklinksList | null | undefined,
): BacklinkProfile {
  const items = Array.isArray(list?.items) ? list!.items : [];
  return {
    domain: q.domain,
    total_backlinks: num(s.backlinks),
    referring_domains: num(s.referring_domains),
    page: q.page,
    limit: q.limit,
    overview: mapOverview(s),
    insights: mapInsights(s),
    backlinks: items.slice(0, q.limit).map(mapBacklinkItem),
  };
}

const capitalize = (s: string) => (s ? s[0].toUpperCase() + s.slice(1).toLowerCase() : s);

function intents(d: DfsKeywordData): string[] | null {
  const info = d.search_intent_info;
  if (!info) return null;
  const all = [info.main_intent, ...(Array.isArray(info.foreign_intent) ? info.foreign_intent : [])]
    .filter((v): v is string => typeof v === 'string' && v.length > 0)
    .map(capitalize);
  return all.length ? [...new Set(all)] : null;
}

/** The 12 most recent months, oldest first. */
function trend(d: DfsKeywordData): TrendPoint[] | null {
  const months = d.keyword_info?.monthly_searches;
  if (!Array.isArray(months)) return null;
  return months
    .filter((p) => num(p?.year) !== null && num(p?.month) !== null)
    .map((p) => ({ y: p.year as number, m: p.month as number, v: num(p.search_volume) }))
    .sort((a, b) => a.y - b.y || a.m - b.m)
    .slice(-12);
}

/** A flat KeywordData (keyword_overview item, seed_keyword_data, items[i].keyword_data) → metric set. */
export function mapKeywordData(d: DfsKeywordData | null | undefined): KeywordMetricSet {
  const k = d ?? {};
  const info = k.keyword_info ?? null;
  const growth = info?.search_volume_trend ?? null;
  const serp = k.serp_info ?? null;
  const avg = k.avg_backlinks_info ?? null;
  return {
    search_volume: num(info?.search_volume),
    cpc: num(info?.cpc),
    competition: num(info?.competition),
    competition_level: str(info?.competition_level),
    difficulty: num(k.keyword_properties?.keyword_difficulty),
    intent: intents(k),
    trend: trend(k),
    growth: growth
      ? { m: num(growth.monthly), q: num(growth.quarterly), y: num(growth.yearly) }
      : null,
    serp_features: Array.isArray(serp?.serp_item_types)
      ? serp!.serp_item_types!.filter((t) => typeof t === 'string')
      : null,
    bid_low: num(info?.low_top_of_page_bid),
    bid_high: num(info?.high_top_of_page_bid),
    avg_backlinks: num(avg?.backlinks),
    avg_ref_domains: num(avg?.referring_domains),
    comp_domain_rank: num(avg?.main_domain_rank),
    se_results: num(serp?.se_results_count),
  };
}

/** A related_keywords item → related row, or null when it has no keyword. */
function mapRelatedItem(item: DfsRelatedItem, seed: string): RelatedKeywordRow | null {
  const keyword = str(item.keyword_data?.keyword);
  if (!keyword) return null;
  const related = Array.isArray(item.related_keywords)
    ? item.related_keywords
        .filter((r): r is string => typeof r === 'string')
        .slice(0, MAX_RELATED_PER_ROW)
    : [];
  return {
    keyword,
    ...mapKeywordData(item.keyword_data),
    related,
    match_bucket: matchBucket(keyword, seed),
  };
}

/** The related rows without the seed itself (depth 0), at most `limit`. */
export function mapRelatedItems(
  items: DfsRelatedItem[] | null | undefined,
  seed: string,
  limit: number,
): RelatedKeywordRow[] {
  const norm = normalizeKeyword(seed);
  const rows: RelatedKeywordRow[] = [];
  for (const item of Array.isArray(items) ? items : []) {
    if (item?.depth === 0) continue;
    const row = mapRelatedItem(item ?? {}, seed);
    if (!row || normalizeKeyword(row.keyword) === norm) continue;
    rows.push(row);
    if (rows.length >= limit) break;
  }
  return rows;
}
