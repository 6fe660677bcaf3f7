import { SERP_FEATURES } from '@app/database';
import {
  CheckRow,
  KeywordHeadRow,
  RankProjectRow,
  TrackedKeywordEntryRow,
  TrackedKeywordRow,
} from './rank.repository';
import type { RankHistory, TrackedKeyword } from './rank.schema';

/** previous − current: positive when the keyword moved up; null when either is unknown/unranked. */
export function positionChange(previous: number | null, current: number | null): number | null {
  return previous == null || current == null ? null : previous - current;
}

const num = (v: string | number | null): number | null => (v == null ? null : Number(v));

/**
 * One data.keywords[] entry of GET /rank/keywords (spec "Tracked keyword"), members in the
 * answer's order. The answer itself is sent as the JSON text PostgreSQL keeps pre-rendered
 * (rank-keyword-json.sql.ts; docs/your-data.md "Rank tracking"): that text is
 * `JSON.stringify` of this view, byte for byte (test/your-data/rank-json.e2e-spec.ts), and
 * the member order equals the rendering's (rank.mapper.spec.ts).
 */
export function trackedKeywordView(k: TrackedKeywordEntryRow): TrackedKeyword {
  return {
    keyword_id: k.id,
    keyword: k.keyword,
    difficulty: k.difficulty,
    search_volume: k.search_volume,
    cpc: num(k.cpc),
    country: k.country,
    language: k.language,
    device: k.device,
    status: k.status,
    project_id: k.project_id,
    project_domain: k.project_domain,
    project_name: k.project_name,
    last_checked: k.latest_check_date,
    current_position: k.latest_position,
    previous_position: k.previous_position,
    position_change: positionChange(k.previous_position, k.latest_position),
    landing_page: k.latest_landing_page,
    gsc_clicks: k.latest_gsc_clicks,
    gsc_impressions: k.latest_gsc_impressions,
    gsc_ctr: k.latest_gsc_ctr,
    local_pack: k.latest_local_pack,
    featured_snippet: k.latest_featured_snippet,
    ai_overview: k.latest_ai_overview,
  };
}

/** One data.history[] entry of GET /rank/history. */
export function historyEntryView(c: CheckRow) {
  return {
    check_date: c.check_date,
    position: c.position,
    previous_position: c.previous_position,
    change: positionChange(c.previous_position, c.position),
    landing_page: c.landing_page,
    gsc_clicks: c.gsc_clicks,
    gsc_impressions: c.gsc_impressions,
    gsc_ctr: c.gsc_ctr,
    gsc_average_position: c.gsc_average_position,
    ...Object.fromEntries(SERP_FEATURES.map((f) => [f, c[f]])),
  };
}

/**
 * Trend of a window given newest-first checks: first = position at the oldest check,
 * latest = position at the newest check (either may be null = not ranked), best = lowest
 * and worst = highest ranked position; unranked checks are ignored by best/worst, which
 * are null when the keyword never ranked in the window.
 */
export function trendOf(newestFirst: Array<{ position: number | null }>): RankHistory['trend'] {
  const ranked = newestFirst.map((c) => c.position).filter((p): p is number => p != null);
  return {
    first: newestFirst.length ? newestFirst[newestFirst.length - 1].position : null,
    latest: newestFirst.length ? newestFirst[0].position : null,
    best: ranked.length ? Math.min(...ranked) : null,
    worst: ranked.length ? Math.max(...ranked) : null,
  };
}

export function keywordHeadView(k: KeywordHeadRow): RankHistory['keyword'] {
  return {
    id: k.id,
    keyword: k.keyword,
    project_id: k.project_id,
    domain: k.domain,
    project: k.project,
  };
}

/** Answer of POST /admin/v1/accounts/:id/rank-projects. */
export function rankProjectAdminView(p: RankProjectRow) {
  return {
    id: p.id,
    account_id: p.accountId,
    domain: p.domain,
    name: p.name,
    tracking: p.tracking,
  };
}

/** Answer of POST /admin/v1/rank-projects/:id/keywords. */
export function trackedKeywordAdminView(k: TrackedKeywordRow) {
  return {
    id: k.id,
    project_id: k.projectId,
    keyword: k.keyword,
    country: k.country,
    language: k.language,
    device: k.device,
    status: k.status,
    difficulty: k.difficulty,
    search_volume: k.searchVolume,
    cpc: num(k.cpc),
  };
}
