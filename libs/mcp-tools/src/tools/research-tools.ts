import { z } from 'zod';
import { apiGet, apiPost } from '../backend';
import { fieldsArg, pickFields, withoutFields } from '../fields';
import { toToolResult } from '../tool-result';
import {
  COST,
  LANGUAGES,
  LOCATION_CODE_MAX,
  LOCATION_CODE_MIN,
  READ_ONLY_EXTERNAL,
  withFallback,
  boundedInt,
} from './schemas';
import { READ_ONLY, ToolContext } from './tool-context';

/** Research tools: fresh data from the outside provider (GET /backlinks, POST /keyword-research, locations). */
export function registerResearchTools(context: ToolContext): void {
  registerBacklinksTool(context);
  registerKeywordResearchTool(context);
  registerListLocationsTool(context);
}

/** get_backlinks: GET /backlinks, a domain's backlink profile and a page of its backlinks. */
function registerBacklinksTool({ server, api }: ToolContext): void {
  server.registerTool(
    'get_backlinks',
    {
      title: 'Backlink profile of a domain',
      description:
        'Backlink profile of a domain (GET /api/v1/backlinks): totals, overview (domain rank, referring domains, spam score...), ' +
        'insights by link type/country/TLD and a page of individual backlinks. Use it to audit or compare link profiles. ' +
        'Units: spam_score, domain_from_rank and page_from_rank 0-100; dofollow and the is_* flags 1 or 0; first_seen, ' +
        'last_seen and lost_date are datetime strings as the provider dates them; counts are whole numbers. ' +
        `${COST.research} Backlinks draw the monthly backlinks quota; when it is used up each call costs 1 credit, and ` +
        'page > 1 or limit > 100 always costs 1 credit. Answers are cached (Pro 2 days, Agency 7 days): meta.cached=true means no quota or credit was used.',
      inputSchema: {
        domain: z
          .string()
          .trim()
          .min(1)
          .max(2048)
          .describe('Root domain, e.g. example.com; a full URL is accepted and normalized'),
        page: boundedInt(1, 1000, 'Page of backlinks, default 1 (> 1 always costs a credit)'),
        limit: boundedInt(
          1,
          200,
          'Backlinks per page, 1-200, default 100 (> 100 always costs a credit)',
        ),
        fields: fieldsArg('backlinks', ['url_from', 'url_to', 'anchor']),
      },
      annotations: { ...READ_ONLY_EXTERNAL, idempotentHint: false },
    },
    async (args, extra) =>
      toToolResult(
        pickFields(
          await apiGet(api, '/backlinks', withoutFields(args), extra.signal),
          'backlinks',
          args.fields,
        ),
      ),
  );
}

/** The definition of keyword_research: description, input schema, annotations. */
const KEYWORD_RESEARCH = {
  title: 'Keyword research',
  description:
    'Search volume, CPC, competition, difficulty, intent, 12-month trend and SERP features of a keyword, plus related ' +
    'keywords with the same metrics (POST /api/v1/keyword-research). Use it to size demand or find keyword ideas in a market. ' +
    'Units: search_volume = average monthly searches; cpc, bid_low and bid_high in USD whatever the market; competition ' +
    '(paid) 0-1; difficulty (organic) 0-100; growth m/q/y in percent; comp_domain_rank 0-1000; trend = 12 months of ' +
    '{y, m, v}. Any metric may be null when the provider has no value. ' +
    `${COST.research} Draws the monthly keyword-research quota; when it is used up the call is refused with ` +
    'QUOTA_EXCEEDED (never spends credits). Recent lookups come from cache (meta.cached=true) at no quota cost.',
  inputSchema: {
    keyword: z.string().trim().min(1).max(200).describe('The seed keyword, at most 200 characters'),
    location_code: z
      .number()
      .int()
      .min(LOCATION_CODE_MIN)
      .max(LOCATION_CODE_MAX)
      .optional()
      .describe(
        'Market: 2000 + the ISO 3166-1 numeric country code, default 2840 (United States). Others: 2826 UK, 2124 Canada, 2036 Australia, 2356 India, 2392 Japan, ' +
          '2276 Germany, 2250 France, 2724 Spain, 2380 Italy, 2528 Netherlands, 2076 Brazil; full list from list_locations. ' +
          'An unknown code is refused with UNSUPPORTED_LOCATION.',
      ),
    language_code: withFallback(
      LANGUAGES,
      'Language, default en; an unknown code falls back to English, named in meta.warnings',
    ).optional(),
    limit: boundedInt(1, 100, 'Most related keywords returned, 1-100, default 10'),
    fields: fieldsArg('related_keywords', ['keyword', 'search_volume', 'difficulty']),
  },
  annotations: { ...READ_ONLY_EXTERNAL, idempotentHint: false },
};

/** keyword_research: POST /keyword-research, a keyword's metrics and related keywords. */
function registerKeywordResearchTool({ server, api }: ToolContext): void {
  server.registerTool('keyword_research', KEYWORD_RESEARCH, async (args, extra) =>
    toToolResult(
      pickFields(
        await apiPost(api, '/keyword-research', withoutFields(args), extra.signal),
        'related_keywords',
        args.fields,
      ),
    ),
  );
}

/** list_locations: the markets keyword_research accepts. */
function registerListLocationsTool({ server, api }: ToolContext): void {
  server.registerTool(
    'list_locations',
    {
      title: 'Keyword-research markets',
      description:
        'The markets accepted by keyword_research: location_code (2000 + ISO 3166-1 numeric), location_name, country_iso ' +
        '(ISO 3166-1 alpha-2) and language_code (the primary language) ' +
        '(GET /api/v1/keyword-research/locations). Use it when a market other than the common ones is needed. ' +
        COST.other,
      annotations: READ_ONLY,
    },
    async (extra) =>
      toToolResult(await apiGet(api, '/keyword-research/locations', undefined, extra.signal)),
  );
}
