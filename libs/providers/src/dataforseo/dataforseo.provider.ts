import { Logger } from '@nestjs/common';
import { ApiError, metrics } from '@app/core';
import {
  BacklinkQuery,
  KeywordMetricsAnswer,
  KeywordMetricsQuery,
  KeywordQuery,
  SeoDataProvider,
} from '../seo-data-provider';
import { BacklinkProfile, KeywordResearch } from '../seo-data.schema';
import { DataForSeoClient, UpstreamFailure } from './dataforseo.client';
import {
  isEmptySummary,
  mapBacklinkProfile,
  mapKeywordData,
  mapRelatedItems,
} from './dataforseo.mapping';
import {
  DfsBacklinksList,
  DfsBacklinksSummary,
  DfsOverviewResult,
  DfsRelatedResult,
  DfsTask,
} from './dataforseo.types';
import { normalizeKeyword } from '../keyword-rules';

/** Entries per referring_links_* map of the summary. */
const INSIGHT_LIST_LIMIT = 20;

/** The one message clients see for any upstream problem: nothing upstream-specific leaks. */
const UPSTREAM_MESSAGE =
  'The data provider returned no data for this request. Nothing was charged; please try again later.';

/** related_keywords depth: ≈8 keywords at depth 1, ≈72 at 2, ≈584 at 3 (docs/research.md). */
export function relatedDepth(limit: number): number {
  if (limit <= 8) return 1;
  if (limit <= 72) return 2;
  return 3;
}

/** The real adapter: DataForSEO v3 Backlinks and Labs (Google) live endpoints. */
export class DataForSeoProvider extends SeoDataProvider {
  readonly name = 'dataforseo' as const;
  private readonly logger = new Logger('DataForSEO');

  constructor(private readonly client: DataForSeoClient) {
    super();
  }

  async backlinkProfile(q: BacklinkQuery): Promise<BacklinkProfile> {
    const [summaryTask, listTask] = await Promise.all([
      this.call<DfsBacklinksSummary>('/v3/backlinks/summary/live', {
        target: q.domain,
        include_subdomains: true,
        rank_scale: 'one_hundred',
        internal_list_limit: INSIGHT_LIST_LIMIT,
      }),
      this.call<DfsBacklinksList>('/v3/backlinks/backlinks/live', {
        target: q.domain,
        mode: 'as_is',
        limit: q.limit,
        offset: (q.page - 1) * q.limit,
        rank_scale: 'one_hundred',
      }),
    ]);
    const summary = firstResult(summaryTask);
    if (!summary || isEmptySummary(summary))
      throw this.noData('/v3/backlinks/summary/live', 'empty summary');
    return mapBacklinkProfile(q, summary, firstResult(listTask));
  }

  async keywordResearch(q: KeywordQuery): Promise<KeywordResearch> {
    const relatedPath = '/v3/dataforseo_labs/google/related_keywords/live';
    const relatedTask = await this.call<DfsRelatedResult>(relatedPath, {
      keyword: q.keyword,
      location_code: q.locationCode,
      language_code: q.upstreamLanguage,
      depth: relatedDepth(q.limit),
      // One more than asked: the seed itself may come back as an item and is dropped.
      limit: Math.min(q.limit + 1, 1000),
      include_seed_keyword: true,
      include_serp_info: true,
    });
    const result = firstResult(relatedTask);
    if (!result) throw this.noData(relatedPath, 'result is null');
    const rows = mapRelatedItems(result.items, q.keyword, q.limit);

    let seed = result.seed_keyword_data ?? null;
    if (!seed) {
      const overviewTask = await this.call<DfsOverviewResult>(
        '/v3/dataforseo_labs/google/keyword_overview/live',
        {
          keywords: [q.keyword],
          location_code: q.locationCode,
          language_code: q.upstreamLanguage,
          include_serp_info: true,
        },
      );
      const items = firstResult(overviewTask)?.items;
      const list = Array.isArray(items) ? items : [];
      seed = list.find((i) => normalizeKeyword(i?.keyword ?? '') === q.keyword) ?? list[0] ?? null;
    }
    if (!seed && rows.length === 0)
      throw this.noData(relatedPath, 'no seed data and no related keywords');
    const total = typeof result.total_count === 'number' ? result.total_count : rows.length;
    return {
      keyword: q.keyword,
      total_count: total,
      overview: mapKeywordData(seed),
      related_keywords: rows,
    };
  }

  async keywordMetrics(q: KeywordMetricsQuery): Promise<KeywordMetricsAnswer> {
    const task = await this.call<DfsOverviewResult>(
      '/v3/dataforseo_labs/google/keyword_overview/live',
      { keywords: q.keywords, location_code: q.locationCode, language_code: q.upstreamLanguage },
    );
    const items = firstResult(task)?.items;
    const byKeyword: KeywordMetricsAnswer['byKeyword'] = new Map();
    for (const item of Array.isArray(items) ? items : []) {
      if (!item || typeof item.keyword !== 'string') continue;
      const m = mapKeywordData(item);
      byKeyword.set(normalizeKeyword(item.keyword), {
        difficulty: m.difficulty,
        search_volume: m.search_volume,
        cpc: m.cpc,
      });
    }
    return { byKeyword, cost: typeof task.cost === 'number' && task.cost > 0 ? task.cost : 0 };
  }

  private async call<R>(path: string, task: Record<string, unknown>): Promise<DfsTask<R>> {
    const endpoint = endpointLabel(path);
    const stop = metrics.upstreamDuration.startTimer({ provider: 'dataforseo', endpoint });
    try {
      const result = await this.client.post<R>(path, task);
      metrics.upstreamCalls.inc({ provider: 'dataforseo', endpoint, outcome: 'ok' });
      return result;
    } catch (e) {
      const timeout = e instanceof UpstreamFailure && e.message.startsWith('timed out');
      metrics.upstreamCalls.inc({
        provider: 'dataforseo',
        endpoint,
        outcome: timeout ? 'timeout' : 'error',
      });
      if (e instanceof UpstreamFailure) throw new ApiError('UPSTREAM_ERROR', UPSTREAM_MESSAGE);
      throw e;
    } finally {
      stop();
    }
  }

  private noData(path: string, why: string): ApiError {
    metrics.upstreamCalls.inc({
      provider: 'dataforseo',
      endpoint: endpointLabel(path),
      outcome: 'no_data',
    });
    this.logger.warn({ path, reason: why }, 'DataForSEO returned no data');
    return new ApiError('UPSTREAM_ERROR', UPSTREAM_MESSAGE);
  }
}

/** The metric label of an upstream path: `/v3/backlinks/summary/live` → `backlinks/summary`. */
function endpointLabel(path: string): string {
  return path.replace(/^\/v3\//, '').replace(/\/live$/, '');
}

function firstResult<R>(task: DfsTask<R>): R | null {
  return Array.isArray(task.result) && task.result.length > 0 && task.result[0]
    ? task.result[0]
    : null;
}
