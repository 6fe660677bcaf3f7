import { z } from 'zod';
import { GSC_DIMENSIONS, GSC_SORTS } from '@app/core';
import { apiGet } from '../backend';
import { fieldsArg, pickFields, withoutFields } from '../fields';
import { toToolResult } from '../tool-result';
import { COST, PG_INT_MAX, id, plainDate, withFallback, boundedInt } from './schemas';
import { registerRankManagementTools } from './rank-management-tools';
import { registerAiVisibilityManagementTools } from './ai-visibility-management-tools';
import { READ_ONLY, ToolContext } from './tool-context';

/** Your-data tools: what the account already collected (rank tracking, Search Console, AI visibility). */
export function registerYourDataTools(context: ToolContext): void {
  registerRankManagementTools(context);
  registerRankTools(context);
  registerGscTools(context);
  registerAiVisibilityTools(context);
  registerAiVisibilityManagementTools(context);
}

/** list_rank_keywords: GET /rank/keywords, a page of the tracked keywords. */
const LIST_RANK_KEYWORDS = {
  title: 'Tracked keywords',
  description:
    "The account's rank-tracked keywords with latest position, change (positive = moved up), landing page, " +
    'GSC clicks/impressions/CTR and SERP features (GET /api/v1/rank/keywords). Use it to see current rankings and to ' +
    'find a keyword_id for get_rank_history. A keyword never checked has null positions. ' +
    'Returns at most `limit` keywords (default 100, max 500), ordered by project then keyword id, from `offset` ' +
    '(default 0); data.count is the number of keywords in this answer, meta.total the number matching across all ' +
    'pages, and meta.next is null on the last page (otherwise call again with offset = meta.offset + meta.limit). ' +
    'Units: positions 1 = top (null = not ranked); gsc_ctr ' +
    "in percent (0-100); cpc in the market's currency; difficulty 0-100; search_volume monthly searches; " +
    'last_checked YYYY-MM-DD. ' +
    COST.yourData,
  inputSchema: {
    project_id: id('Restrict to one rank-tracking project; omit for all projects').optional(),
    limit: boundedInt(1, 500, 'Most keywords returned, 1-500, default 100'),
    offset: boundedInt(
      0,
      PG_INT_MAX,
      'Keywords to skip in that order, default 0 (paging: the next page is offset + limit)',
    ),
    fields: fieldsArg('keywords', ['keyword', 'current_position', 'position_change']),
  },
  annotations: READ_ONLY,
};

/** get_rank_history: GET /rank/history, one keyword's positions. */
const GET_RANK_HISTORY = {
  title: 'Position history of a tracked keyword',
  description:
    'Daily position history of one tracked keyword, newest first, with SERP features and a trend summary ' +
    '(first, latest, best, worst) (GET /api/v1/rank/history). Use it to explain ranking movements over time. ' +
    'Units: positions 1 = top (null = not ranked that day; best = lowest number); gsc_ctr in percent (0-100); ' +
    'gsc_average_position 1 = top; check_date YYYY-MM-DD. ' +
    COST.yourData,
  inputSchema: {
    keyword_id: id(
      'keyword_id from list_rank_keywords; a keyword of another account gives NOT_FOUND',
    ),
    days: boundedInt(1, 365, 'Window in days, 1-365, default 90'),
  },
  annotations: READ_ONLY,
};

/** list_rank_keywords and get_rank_history: the tracked keywords and one keyword's positions. */
function registerRankTools({ server, api }: ToolContext): void {
  server.registerTool('list_rank_keywords', LIST_RANK_KEYWORDS, async (args, extra) =>
    toToolResult(
      pickFields(
        await apiGet(api, '/rank/keywords', withoutFields(args), extra.signal),
        'keywords',
        args.fields,
      ),
    ),
  );

  server.registerTool('get_rank_history', GET_RANK_HISTORY, async (args, extra) =>
    toToolResult(await apiGet(api, '/rank/history', args, extra.signal)),
  );
}

/** list_gsc_properties: GET /gsc/properties, the synced properties. */
const LIST_GSC_PROPERTIES = {
  title: 'Search Console properties',
  description:
    "The account's connected Google Search Console properties with their last sync (GET /api/v1/gsc/properties). " +
    'Use it to find a property_id for query_gsc. This is the synced copy; nothing is fetched from Google. ' +
    'last_synced_at is YYYY-MM-DD HH:MM:SS (UTC), null before the first sync. ' +
    COST.yourData,
  annotations: READ_ONLY,
};

/** query_gsc: GET /gsc/queries, a property's performance by one dimension. */
const QUERY_GSC = {
  title: 'Search Console performance',
  description:
    'Search Console clicks, impressions, CTR and average position of a property grouped by one dimension, with ' +
    'totals for the whole period (GET /api/v1/gsc/queries). Use it for top queries/pages/countries/devices or a daily ' +
    'series (dim=date). total_rows counts distinct keys in the period, not rows returned. Units: ctr in percent ' +
    '(clicks / impressions x 100, 0-100); position = impression-weighted average position, 1 = top; both null ' +
    'without impressions; from, to and date keys YYYY-MM-DD (days as Search Console reports them). ' +
    COST.yourData,
  inputSchema: {
    property_id: id(
      'property_id from list_gsc_properties; a property of another account gives NOT_FOUND',
    ),
    dim: withFallback(
      GSC_DIMENSIONS,
      'Grouping dimension: query (default), page, country, device, date or searchAppearance. An unrecognized value ' +
        'falls back to query; data.dim shows what was applied and meta.warnings names the replaced value.',
    ).optional(),
    from: plainDate('First day, YYYY-MM-DD; default 28 days before today').optional(),
    to: plainDate('Last day, YYYY-MM-DD; default today').optional(),
    sort: withFallback(
      GSC_SORTS,
      'Sort by clicks (default), impressions, ctr, position or key; an unrecognized value falls back to clicks, named in meta.warnings',
    ).optional(),
    dir: z.enum(['desc', 'asc']).optional().describe('Sort direction, desc (default) or asc'),
    limit: boundedInt(1, 500, 'Most rows returned, 1-500, default 100'),
    fields: fieldsArg('rows', ['key', 'clicks', 'impressions']),
  },
  annotations: READ_ONLY,
};

/** list_gsc_properties and query_gsc: the synced properties and their performance by dimension. */
function registerGscTools({ server, api }: ToolContext): void {
  server.registerTool('list_gsc_properties', LIST_GSC_PROPERTIES, async (extra) =>
    toToolResult(await apiGet(api, '/gsc/properties', undefined, extra.signal)),
  );

  server.registerTool('query_gsc', QUERY_GSC, async (args, extra) =>
    toToolResult(
      pickFields(
        await apiGet(api, '/gsc/queries', withoutFields(args), extra.signal),
        'rows',
        args.fields,
      ),
    ),
  );
}

/** list_ai_visibility_projects and get_share_of_voice: the projects and a project's latest snapshot. */
function registerAiVisibilityTools({ server, api }: ToolContext): void {
  server.registerTool(
    'list_ai_visibility_projects',
    {
      title: 'AI-visibility projects',
      description:
        "The account's AI-visibility projects (brand tracked in AI assistants' answers) with visibility score and its " +
        'change since the previous scan (GET /api/v1/ai-visibility/projects). Use it to find a project_id for ' +
        'get_share_of_voice. Data is from the last scheduled scan; no AI provider is called. Units: visibility_score ' +
        '0-100 (null before the first scan); score_change in points; created_at and updated_at YYYY-MM-DD HH:MM:SS (UTC). ' +
        COST.yourData,
      annotations: READ_ONLY,
    },
    async (extra) =>
      toToolResult(await apiGet(api, '/ai-visibility/projects', undefined, extra.signal)),
  );

  server.registerTool(
    'get_share_of_voice',
    {
      title: 'AI share of voice',
      description:
        "A project's latest AI-visibility snapshot (geo score, mention rate = share of prompts mentioning the brand, " +
        'average position, sentiment, citations), its share of voice against tracked competitors (brand_share_pct = ' +
        "brand's share of all mentions) and up to 20 competitors (GET /api/v1/ai-visibility/share-of-voice). " +
        'Units: geo_score, visibility_score and competition_score 0-100; mention_rate, citation_rate and brand_share_pct ' +
        'in percent (0-100); sentiment_avg -100 to 100; avg_position 1 = first; snapshot_date YYYY-MM-DD, updated_at ' +
        'YYYY-MM-DD HH:MM:SS (UTC). ' +
        COST.yourData,
      inputSchema: {
        project_id: id(
          'project id from list_ai_visibility_projects; a project of another account gives NOT_FOUND',
        ),
      },
      annotations: READ_ONLY,
    },
    async (args, extra) =>
      toToolResult(await apiGet(api, '/ai-visibility/share-of-voice', args, extra.signal)),
  );
}
