import type { SerpTaskAnswer } from './serp-provider';
import type { DfsSerpItem, DfsSerpResult } from './serp.types';

/** How a project's domain matches a result's host: itself and its subdomains, or itself only. */
export type DomainMatch = 'domain' | 'exact_host';

/** A check as the rank write path stores it (rank_checks; docs/your-data.md). */
export interface SerpCheck {
  /** YYYY-MM-DD (UTC) */
  check_date: string;
  /** rank_group of the first matching organic item; null when none is within the depth. */
  position: number | null;
  landing_page: string | null;
  featured_snippet: boolean;
  ai_overview: boolean;
  people_also_ask: boolean;
  local_pack: boolean;
  images: boolean;
  videos: boolean;
  shopping: boolean;
  knowledge_graph: boolean;
  /** The matched result has sitelinks (`links`). */
  sitelinks: boolean;
}

/** The SERP-feature booleans and the item types that set each. */
const FEATURE_TYPES = {
  featured_snippet: ['featured_snippet'],
  ai_overview: ['ai_overview'],
  people_also_ask: ['people_also_ask'],
  local_pack: ['local_pack'],
  images: ['images'],
  videos: ['video', 'short_videos'],
  shopping: ['shopping', 'popular_products'],
  knowledge_graph: ['knowledge_graph'],
} as const;

/** Lower case, no scheme, path, port or leading `www.` (collectors-wire.md §2.9 step 1). */
export function normalizeHost(value: string): string {
  let host = value
    .trim()
    .toLowerCase()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, '');
  host = host.split(/[/?#]/)[0].replace(/:\d+$/, '').replace(/\.$/, '');
  return host.startsWith('www.') ? host.slice(4) : host;
}

function itemHost(item: DfsSerpItem): string | null {
  if (typeof item.domain === 'string' && item.domain) return normalizeHost(item.domain);
  if (typeof item.url === 'string' && item.url) return normalizeHost(item.url);
  return null;
}

/** Whether a result's host is the target (or, with `domain`, one of its subdomains). */
export function hostMatches(host: string, target: string, match: DomainMatch): boolean {
  const t = normalizeHost(target);
  return host === t || (match === 'domain' && host.endsWith(`.${t}`));
}

/** The UTC date of a `yyyy-mm-dd hh:mm:ss +00:00` datetime, or null when unreadable. */
export function serpDate(datetime: string | null | undefined): string | null {
  if (typeof datetime !== 'string') return null;
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(?:\.\d+)?\s*([+-]\d{2}):?(\d{2})$/.exec(
    datetime.trim(),
  );
  if (!m) return null;
  const at = new Date(`${m[1]}T${m[2]}${m[3]}:${m[4]}`);
  return Number.isNaN(at.getTime()) ? null : at.toISOString().slice(0, 10);
}

/**
 * What one advanced SERP says about a project (docs/your-data-collection contract,
 * collectors-wire.md §2.9): the rank_group of the first top-level `organic` item whose host
 * matches, its url and sitelinks, and which features the SERP shows. `fallbackDate`: the
 * task's day when the result has no readable datetime.
 */
export function serpCheck(
  result: DfsSerpResult,
  target: string,
  match: DomainMatch,
  fallbackDate: string,
): SerpCheck {
  const items = Array.isArray(result.items)
    ? result.items.filter((i) => i && typeof i === 'object')
    : [];
  const hit = items.find((i) => {
    if (i.type !== 'organic') return false;
    const host = itemHost(i);
    return host !== null && hostMatches(host, target, match);
  });
  const types = new Set<string>([
    ...(Array.isArray(result.item_types) ? result.item_types : []),
    ...items.map((i) => String(i.type)),
  ]);
  const has = (list: readonly string[]) => list.some((t) => types.has(t));
  const rank = hit?.rank_group;
  return {
    check_date: serpDate(result.datetime) ?? fallbackDate,
    position: typeof rank === 'number' && Number.isInteger(rank) && rank >= 1 ? rank : null,
    landing_page: hit && typeof hit.url === 'string' ? hit.url : null,
    featured_snippet: has(FEATURE_TYPES.featured_snippet),
    ai_overview: has(FEATURE_TYPES.ai_overview),
    people_also_ask: has(FEATURE_TYPES.people_also_ask),
    local_pack: has(FEATURE_TYPES.local_pack),
    images: has(FEATURE_TYPES.images),
    videos: has(FEATURE_TYPES.videos),
    shopping: has(FEATURE_TYPES.shopping),
    knowledge_graph: has(FEATURE_TYPES.knowledge_graph),
    sitelinks: Array.isArray(hit?.links) && hit.links.length > 0,
  };
}

/** A check of a task the provider found no results for (40102): not ranked, no features. */
export function noResultsCheck(checkDate: string): SerpCheck {
  return {
    check_date: checkDate,
    position: null,
    landing_page: null,
    featured_snippet: false,
    ai_overview: false,
    people_also_ask: false,
    local_pack: false,
    images: false,
    videos: false,
    shopping: false,
    knowledge_graph: false,
    sitelinks: false,
  };
}

/**
 * The check a finished task's answer gives, the same whether it came by task_get or by
 * postback: `done` maps its SERP (serpCheck), `no_results` (40102) is not ranked; null for
 * the other answers (pending, refused, failed: no check).
 */
export function answerCheck(
  answer: SerpTaskAnswer,
  task: { domain: string; match: DomainMatch; check_date: string },
): { kind: 'done' | 'no_results'; check: SerpCheck } | null {
  if (answer.kind === 'done')
    return {
      kind: 'done',
      check: serpCheck(answer.result, task.domain, task.match, task.check_date),
    };
  if (answer.kind === 'no_results')
    return { kind: 'no_results', check: noResultsCheck(task.check_date) };
  return null;
}
