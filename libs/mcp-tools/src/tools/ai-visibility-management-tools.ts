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
 * AI-visibility management (docs/ai-visibility-management.md): the customer's projects
 * (brand, aliases, market, engine, frequency, prompts, competitors) created, read, changed
 * and deleted. The writes need WRITE_SCOPE over OAuth.
 */

const RECORDS = 'AI-visibility projects';

const projectId = id(
  'project id from list_ai_visibility_projects or create_ai_visibility_project; a project of another account gives NOT_FOUND',
);
const domain = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(253, 'must be at most 253 characters')
  .describe('A site, e.g. example.com (a URL is reduced to its host; a leading www. is dropped)');
const name = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(200, 'must be at most 200 characters');

const MEMBERS = {
  domain: domain.describe('The brand’s site, e.g. example.com (normalised like a rank project’s)'),
  brand_name: name.describe('The brand as answers would name it'),
  brand_aliases: z
    .array(name)
    .max(20, 'must list at most 20 aliases')
    .describe('Other names of the brand (matched like the name: whole words, any case), distinct'),
  target_country: z
    .string()
    .regex(/^[A-Za-z]{2}$/, 'must be a two-letter country code, e.g. US')
    .describe('Two-letter country code of a supported market (list_locations)'),
  target_language: z.enum(LANGUAGES).describe('Language code of the answers'),
  ai_engine: z
    .enum(['chatgpt', 'claude', 'gemini', 'perplexity'])
    .describe('The AI engine the prompts are asked on'),
  tracking_frequency: z.enum(['daily', 'weekly']).describe('How often the prompts are asked'),
  prompts: z
    .array(
      z
        .string()
        .trim()
        .min(3, 'must be at least 3 characters')
        .max(500, 'must be at most 500 characters'),
    )
    .min(1, 'must list at least 1 prompt')
    .describe(
      'The questions buyers ask an AI engine, 3-500 characters each, distinct; at most the plan’s ' +
        'ai_visibility_prompts_per_project (Pro 25, Agency 100)',
    ),
  competitors: z
    .array(z.object({ name: name.describe('The competitor as answers name it'), domain }))
    .max(20, 'must list at most 20 competitors')
    .describe('Up to 20 competitors {name, domain}, distinct domains, none the project’s own'),
};

const SETTINGS_UNITS =
  'Settings: {project_id, brand_aliases, prompts, competitors, ai_engine, tracking_frequency, next_scan_at ' +
  '(YYYY-MM-DD HH:MM:SS UTC, when the next scan starts; null: never scanned, a project without prompts)}.';

const LIMITS_NOTE =
  'The plan limits projects (ai_visibility_projects: Pro 1, Agency 10) and prompts per project ' +
  '(ai_visibility_prompts_per_project: Pro 25, Agency 100): past either nothing changes and the answer is ' +
  'PAYMENT_REQUIRED with meta.limit, meta.used and meta.requested.';

const CREATE_AI_VISIBILITY_PROJECT = {
  title: 'Create an AI-visibility project',
  description:
    'Starts tracking how an AI engine answers the questions buyers ask (POST /api/v1/ai-visibility/projects): ' +
    'the brand, its aliases, its market, the engine, how often, the prompts and up to 20 competitors. The first ' +
    'scan runs within minutes; its scores then show in list_ai_visibility_projects and get_share_of_voice. One ' +
    'project per domain and engine (VALIDATION_ERROR on domain otherwise). Answers the project as ' +
    'list_ai_visibility_projects shows it, plus prompts, brand_aliases and competitors. ' +
    LIMITS_NOTE +
    ' ' +
    WRITE_NOTE +
    ' ' +
    COST.yourData,
  inputSchema: {
    ...MEMBERS,
    brand_aliases: MEMBERS.brand_aliases.optional(),
    competitors: MEMBERS.competitors.optional(),
  },
  annotations: ADDS,
};

const GET_AI_VISIBILITY_SETTINGS = {
  title: 'AI-visibility project settings',
  description:
    'What a project asks and tracks (GET /api/v1/ai-visibility/projects/{project_id}/settings): its prompts, ' +
    'brand aliases, competitors, engine, frequency and when it is next scanned. ' +
    SETTINGS_UNITS +
    ' ' +
    COST.yourData,
  inputSchema: { project_id: projectId },
  annotations: READ_ONLY,
};

const UPDATE_AI_VISIBILITY_PROJECT = {
  title: 'Change an AI-visibility project',
  description:
    'Changes any member of a project (PATCH /api/v1/ai-visibility/projects/{project_id}); a list given replaces ' +
    'the stored one (send every prompt to keep). Changing the prompts, engine or market makes the project due ' +
    'now (scanned within minutes). Answers its settings. ' +
    SETTINGS_UNITS +
    ' ' +
    LIMITS_NOTE +
    ' ' +
    WRITE_NOTE +
    ' ' +
    COST.yourData,
  inputSchema: {
    project_id: projectId,
    ...Object.fromEntries(Object.entries(MEMBERS).map(([key, schema]) => [key, schema.optional()])),
  } as { project_id: typeof projectId } & {
    [K in keyof typeof MEMBERS]: z.ZodOptional<(typeof MEMBERS)[K]>;
  },
  annotations: SETS,
};

const DELETE_AI_VISIBILITY_PROJECT = {
  title: 'Delete an AI-visibility project',
  description:
    'Deletes a project with its scans and stored answers, for good (DELETE ' +
    '/api/v1/ai-visibility/projects/{project_id}); answers {project_id, deleted: true}. Confirm with the person ' +
    'before calling. ' +
    WRITE_NOTE +
    ' ' +
    COST.yourData,
  inputSchema: { project_id: projectId },
  annotations: DELETES,
};

/** The management tools of AI visibility: create, read settings, change, delete. */
export function registerAiVisibilityManagementTools(context: ToolContext): void {
  const { server, api } = context;
  const path = (projectId: number) => `/ai-visibility/projects/${projectId}`;

  server.registerTool(
    'create_ai_visibility_project',
    CREATE_AI_VISIBILITY_PROJECT,
    writeHandler(
      context,
      'create_ai_visibility_project',
      async (args, extra) =>
        toToolResult(await apiPost(api, '/ai-visibility/projects', args, extra.signal)),
      RECORDS,
    ),
  );

  server.registerTool(
    'get_ai_visibility_settings',
    GET_AI_VISIBILITY_SETTINGS,
    async ({ project_id }, extra) =>
      toToolResult(await apiGet(api, `${path(project_id)}/settings`, undefined, extra.signal)),
  );

  server.registerTool(
    'update_ai_visibility_project',
    UPDATE_AI_VISIBILITY_PROJECT,
    writeHandler(
      context,
      'update_ai_visibility_project',
      async ({ project_id, ...body }, extra) =>
        toToolResult(await apiPatch(api, path(project_id), body, extra.signal)),
      RECORDS,
    ),
  );

  server.registerTool(
    'delete_ai_visibility_project',
    DELETE_AI_VISIBILITY_PROJECT,
    writeHandler(
      context,
      'delete_ai_visibility_project',
      async ({ project_id }, extra) =>
        toToolResult(await apiDelete(api, path(project_id), extra.signal)),
      RECORDS,
    ),
  );
}
