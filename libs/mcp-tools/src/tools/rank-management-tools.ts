import { z } from 'zod';
import { apiDelete, apiGet, apiPatch, apiPost } from '../backend';
import { toToolResult } from '../tool-result';
import { COST, LANGUAGES, id } from './schemas';
import {
  ADDS,
  DELETES,
  READ_ONLY,
  SETS,
  ToolContext,
  WRITE_NOTE,
  writeHandler,
} from './tool-context';

/**
 * Rank tracking management (docs/your-data.md, "Rank tracking: management"): the account's
 * projects and their tracked keywords, listed, created, changed, paused and deleted. Every
 * tool but list_rank_projects changes records, so it needs WRITE_SCOPE over OAuth.
 */

const PROJECT_UNITS =
  'A project: project_id, domain (normalised: lower case, no scheme, path, port or leading www.), name, match ' +
  '("domain": the domain and its subdomains rank; "exact_host": only that host), tracking (true: the service checks ' +
  'its keywords once a day), keywords_count, created_at and updated_at YYYY-MM-DD HH:MM:SS (UTC).';

const projectId = id(
  'project_id from list_rank_projects or create_rank_project; a project of another account gives NOT_FOUND',
);
const keywordId = id(
  'keyword_id from list_rank_keywords or add_rank_keywords; a keyword of another account gives NOT_FOUND',
);
const match = z
  .enum(['domain', 'exact_host'])
  .describe(
    'Which results count as the site\'s: "domain" (default) = the domain and its subdomains, "exact_host" = that host only',
  );
const tracking = z
  .boolean()
  .describe(
    'true: the service checks the keywords once per UTC day (a new keyword within minutes); false: not checked, history kept',
  );
const country = z
  .string()
  .regex(/^[A-Za-z]{2}$/, 'must be a two-letter country code, e.g. US')
  .describe('Two-letter country code of a supported market (list_locations), default US');
const language = z.enum(LANGUAGES).describe('Language code, default en');
const device = z.enum(['desktop', 'mobile']).describe('desktop (default) or mobile');
const keywordText = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(200, 'must be at most 200 characters')
  .describe(
    'The search query, 1-200 characters (trimmed, inner spaces collapsed, case-insensitive)',
  );

const LIST_RANK_PROJECTS = {
  title: 'Rank-tracking projects',
  description:
    "The account's rank-tracking projects (GET /api/v1/rank/projects): one per tracked domain, with how many keywords " +
    'each tracks and whether the service checks them daily. Use it to find a project_id for add_rank_keywords, ' +
    'list_rank_keywords or update_rank_project, and before create_rank_project to see what is tracked already. ' +
    PROJECT_UNITS +
    ' ' +
    COST.yourData,
  annotations: READ_ONLY,
};

const CREATE_RANK_PROJECT = {
  title: 'Create a rank-tracking project',
  description:
    'Starts tracking a domain (POST /api/v1/rank/projects). Safe to repeat: when the account already tracks the ' +
    'domain the same project comes back (HTTP 200 instead of 201) unchanged. Then add keywords with ' +
    'add_rank_keywords; positions appear within minutes of adding them. ' +
    PROJECT_UNITS +
    ' ' +
    WRITE_NOTE +
    ' ' +
    COST.yourData,
  inputSchema: {
    domain: z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .max(253, 'must be at most 253 characters')
      .describe(
        'The site, e.g. example.com (a URL is reduced to its host; a leading www. is dropped)',
      ),
    name: z.string().trim().min(1).max(200).optional().describe('A label, default the domain'),
    match: match.optional(),
    tracking: tracking.optional().describe('Check the keywords daily, default true'),
  },
  annotations: ADDS,
};

const UPDATE_RANK_PROJECT = {
  title: 'Change a rank-tracking project',
  description:
    "Renames a project, changes which results count as the site's (match), or pauses / resumes its daily checks " +
    '(tracking false / true) (PATCH /api/v1/rank/projects/{project_id}). Pausing keeps all history. Give at least ' +
    'one of name, match, tracking. Answers the project. ' +
    WRITE_NOTE +
    ' ' +
    COST.yourData,
  inputSchema: {
    project_id: projectId,
    name: z.string().trim().min(1).max(200).optional().describe('A new label'),
    match: match.optional(),
    tracking: tracking.optional(),
  },
  annotations: SETS,
};

const DELETE_RANK_PROJECT = {
  title: 'Delete a rank-tracking project',
  description:
    'Deletes a project with all its tracked keywords and their position history, for good ' +
    '(DELETE /api/v1/rank/projects/{project_id}); answers {project_id, deleted: true, keywords_deleted}. To stop ' +
    'checking but keep the history, use update_rank_project with tracking false instead. Confirm with the person ' +
    'before calling. ' +
    WRITE_NOTE +
    ' ' +
    COST.yourData,
  inputSchema: { project_id: projectId },
  annotations: DELETES,
};

const ADD_RANK_KEYWORDS = {
  title: 'Track keywords',
  description:
    'Adds 1-1,000 keywords to a project (POST /api/v1/rank/projects/{project_id}/keywords); each is checked once per ' +
    'UTC day, the first time within minutes. An item is a string, or {keyword, country?, language?, device?} whose ' +
    "values win over the call's country / language / device (defaults US, en, desktop). Safe to repeat: an item " +
    'already tracked in the project (same keyword, country, language, device) comes back under already_tracked, ' +
    'unchanged and not counted again. Answers {added, already_tracked, tracked_keywords: {used, limit}}. The plan ' +
    'limits tracked keywords (tracked_keywords; Pro 500, Agency 5,000): a batch that would pass it adds nothing and ' +
    'answers PAYMENT_REQUIRED with meta.limit, meta.used and meta.requested. ' +
    WRITE_NOTE +
    ' ' +
    COST.yourData,
  inputSchema: {
    project_id: projectId,
    keywords: z
      .array(
        z.union([
          keywordText,
          z.object({
            keyword: keywordText,
            country: country.optional(),
            language: language.optional(),
            device: device.optional(),
          }),
        ]),
      )
      .min(1, 'must list at least 1 keyword')
      .max(1000, 'must list at most 1,000 keywords')
      .describe('The keywords: strings, or objects with their own market and device'),
    country: country.optional(),
    language: language.optional(),
    device: device.optional(),
  },
  annotations: ADDS,
};

const UPDATE_RANK_KEYWORD = {
  title: 'Pause or resume a tracked keyword',
  description:
    'Pauses (status "paused": no more daily checks, history kept) or resumes (status "active") one tracked keyword ' +
    '(PATCH /api/v1/rank/keywords/{keyword_id}). Answers the tracked keyword as list_rank_keywords shows it. ' +
    WRITE_NOTE +
    ' ' +
    COST.yourData,
  inputSchema: {
    keyword_id: keywordId,
    status: z
      .enum(['active', 'paused'])
      .describe('"paused" stops the daily checks, "active" resumes them'),
  },
  annotations: SETS,
};

const DELETE_RANK_KEYWORD = {
  title: 'Stop tracking a keyword',
  description:
    'Deletes one tracked keyword and its position history, for good (DELETE /api/v1/rank/keywords/{keyword_id}); ' +
    'answers {keyword_id, deleted: true}. To keep the history, pause it with update_rank_keyword instead. Confirm ' +
    'with the person before calling. ' +
    WRITE_NOTE +
    ' ' +
    COST.yourData,
  inputSchema: { keyword_id: keywordId },
  annotations: DELETES,
};

/** list_rank_projects and the six writes of rank tracking. */
export function registerRankManagementTools(context: ToolContext): void {
  const { server, api } = context;

  server.registerTool('list_rank_projects', LIST_RANK_PROJECTS, async (extra) =>
    toToolResult(await apiGet(api, '/rank/projects', undefined, extra.signal)),
  );

  server.registerTool(
    'create_rank_project',
    CREATE_RANK_PROJECT,
    writeHandler(context, 'create_rank_project', async (args, extra) =>
      toToolResult(await apiPost(api, '/rank/projects', args, extra.signal)),
    ),
  );

  server.registerTool(
    'update_rank_project',
    UPDATE_RANK_PROJECT,
    writeHandler(context, 'update_rank_project', async ({ project_id, ...body }, extra) =>
      toToolResult(await apiPatch(api, `/rank/projects/${project_id}`, body, extra.signal)),
    ),
  );

  server.registerTool(
    'delete_rank_project',
    DELETE_RANK_PROJECT,
    writeHandler(context, 'delete_rank_project', async ({ project_id }, extra) =>
      toToolResult(await apiDelete(api, `/rank/projects/${project_id}`, extra.signal)),
    ),
  );

  server.registerTool(
    'add_rank_keywords',
    ADD_RANK_KEYWORDS,
    writeHandler(context, 'add_rank_keywords', async ({ project_id, ...body }, extra) =>
      toToolResult(await apiPost(api, `/rank/projects/${project_id}/keywords`, body, extra.signal)),
    ),
  );

  server.registerTool(
    'update_rank_keyword',
    UPDATE_RANK_KEYWORD,
    writeHandler(context, 'update_rank_keyword', async ({ keyword_id, ...body }, extra) =>
      toToolResult(await apiPatch(api, `/rank/keywords/${keyword_id}`, body, extra.signal)),
    ),
  );

  server.registerTool(
    'delete_rank_keyword',
    DELETE_RANK_KEYWORD,
    writeHandler(context, 'delete_rank_keyword', async ({ keyword_id }, extra) =>
      toToolResult(await apiDelete(api, `/rank/keywords/${keyword_id}`, extra.signal)),
    ),
  );
}
