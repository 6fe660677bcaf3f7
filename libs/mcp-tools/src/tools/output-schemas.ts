import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
// The public OpenAPI document the code makes (clients/typescript/openapi.json, written by
// `npm run client:generate` from the zod answer schemas of the REST routes, `*.schema.ts`, and
// held equal to them by test/client/client-drift.e2e-spec.ts). The tools' output schemas are
// read from it, so each is the REST route's own success schema, never a second copy.
import openapi from '../../../../clients/typescript/openapi.json';

/** A JSON Schema (draft-07) object. */
export type JsonSchema = Record<string, unknown>;

const COMPONENTS = openapi.components.schemas as unknown as Record<string, JsonSchema>;
const REF = '#/components/schemas/';

const isObject = (value: unknown): value is JsonSchema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * One schema of the OpenAPI 3.0 document as JSON Schema draft-07, which MCP clients validate
 * structuredContent with: `$ref`s inlined, OpenAPI's `nullable: true` as a `null` alternative,
 * `example` dropped (not a JSON Schema keyword), everything else (types, required members,
 * enums, patterns, formats, bounds, descriptions) kept. Objects stay open, as in /docs.
 */
export function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (!isObject(node)) return node;
  if (typeof node.$ref === 'string' && node.$ref.startsWith(REF)) {
    const { $ref: _ref, ...rest } = node;
    return toJsonSchema({ ...component(node.$ref.slice(REF.length)), ...rest });
  }
  const { nullable, example: _example, allOf, ...rest } = node;
  let out: JsonSchema = {};
  // zod writes `allOf: [ref]` to attach a description to a referenced schema: flatten it.
  if (Array.isArray(allOf) && allOf.length === 1) {
    out = toJsonSchema(allOf[0]) as JsonSchema;
  } else if (allOf !== undefined) {
    out.allOf = toJsonSchema(allOf);
  }
  for (const [key, value] of Object.entries(rest)) {
    out[key] =
      key === 'properties' && isObject(value)
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toJsonSchema(v)]))
        : toJsonSchema(value);
  }
  if (nullable !== true) return out;
  if (typeof out.type === 'string' && !Array.isArray(out.enum)) {
    return { ...out, type: [out.type, 'null'] };
  }
  const { description, ...schema } = out;
  return {
    ...(description !== undefined ? { description } : {}),
    anyOf: [schema, { type: 'null' }],
  };
}

/** A named schema of the document (throws on a name it does not have: a renamed answer schema). */
function component(name: string): JsonSchema {
  const schema = COMPONENTS[name];
  if (!schema) throw new Error(`The OpenAPI document has no schema named ${name}`);
  return schema;
}

/** A property of a named object schema, as JSON Schema. */
function member(name: string, property: string): JsonSchema {
  const properties = component(name).properties as Record<string, unknown> | undefined;
  const schema = properties?.[property];
  if (schema === undefined) throw new Error(`${name} has no member ${property}`);
  return toJsonSchema(schema) as JsonSchema;
}

/** The rows of `data[list]` may lack members when the `fields` argument picks some. */
function rowsMayBePartial(data: JsonSchema, list: string): JsonSchema {
  const properties = data.properties as Record<string, JsonSchema>;
  const array = properties[list];
  const { required: _required, ...row } = array.items as JsonSchema;
  return { ...data, properties: { ...properties, [list]: { ...array, items: row } } };
}

/** `{data, meta}` of a REST success answer (`<Name>Answer`, `{success, data, meta}`) as the tool's structuredContent. */
function answer(
  envelope: string,
  options: { fieldsOf?: string; extra?: Record<string, JsonSchema> } = {},
): JsonSchema {
  let data = member(envelope, 'data');
  if (options.fieldsOf) data = rowsMayBePartial(data, options.fieldsOf);
  return structured(data, member(envelope, 'meta'), options.extra);
}

/**
 * A tool error (isError) as tool-result's errorResult makes it: the API's code, message,
 * details and meta, or the connector's own code (NETWORK_ERROR, TIMEOUT, ...) with
 * http_status null. SDK clients validate structuredContent against outputSchema whatever
 * isError says, so the schema admits this shape beside the success.
 */
const TOOL_ERROR: JsonSchema = {
  type: 'object',
  description:
    'Present instead of data and meta when the call failed (isError): the REST error code (e.g. RATE_LIMITED, ' +
    "QUOTA_EXCEEDED, NOT_FOUND, VALIDATION_ERROR) or the connector's (NETWORK_ERROR, TIMEOUT, INVALID_RESPONSE, " +
    'CANCELLED), the message, details and the error meta (request_id, retry_after, limit, resets_at where given)',
  properties: {
    code: { type: 'string' },
    message: { type: 'string' },
    http_status: {
      type: ['integer', 'null'],
      minimum: 100,
      maximum: 599,
      description: 'null when no HTTP answer arrived or the arguments were refused before any call',
    },
    details: {
      description: 'VALIDATION_ERROR: [{field, message}], the first failed rule per field',
    },
    meta: { type: 'object' },
  },
  required: ['code', 'message', 'http_status', 'meta'],
};

/**
 * structuredContent of a tool: `data` and `meta` (and the tool's own members) on success,
 * `error` on a tool error.
 */
function structured(
  data: JsonSchema,
  meta: JsonSchema,
  extra: Record<string, JsonSchema> = {},
): JsonSchema {
  return {
    type: 'object',
    properties: { data, meta, ...extra, error: TOOL_ERROR },
    anyOf: [{ required: ['data', 'meta', ...Object.keys(extra)] }, { required: ['error'] }],
  };
}

/** The 202 of POST /site-audit without its envelope members: what readEnvelope makes `data`. */
function accepted(): JsonSchema {
  const schema = toJsonSchema(component('SiteAuditAccepted')) as JsonSchema;
  const { success: _s, meta: _m, ...properties } = schema.properties as Record<string, unknown>;
  return {
    ...schema,
    properties,
    required: (schema.required as string[]).filter((n) => n !== 'success' && n !== 'meta'),
  };
}

/** run_site_audit's own members beside data and meta (tool-result's successResult `extra` and note). */
const RUN_FACTS: Record<string, JsonSchema> = {
  job_id: { type: 'string', description: 'The job started' },
  finished: { type: 'boolean', description: 'true when the job is complete or failed' },
  polls: { type: 'integer', minimum: 0, description: 'Job reads made while waiting' },
  waited_seconds: { type: 'integer', minimum: 0, maximum: 3600, description: 'Seconds waited' },
  note: { type: 'string', description: 'What happened and what to do next' },
};

/**
 * The output schema of every tool: the JSON Schema of its structuredContent, `data` and
 * `meta` derived from the REST route's documented success answer; a tool error (isError)
 * carries `error` instead.
 */
export function outputSchemas(): Record<string, JsonSchema> {
  return {
    get_usage: answer('UsageAnswer'),
    get_backlinks: answer('BacklinksAnswer', { fieldsOf: 'backlinks' }),
    keyword_research: answer('KeywordResearchAnswer', { fieldsOf: 'related_keywords' }),
    list_locations: answer('LocationsAnswer'),
    start_site_audit: structured(accepted(), member('SiteAuditAccepted', 'meta')),
    get_job: answer('JobAnswer'),
    list_jobs: answer('JobListAnswer'),
    run_site_audit: structured(
      {
        description:
          'The job record (GET /jobs/{job_id}) read last, or the 202 acceptance when no read fitted in the wait',
        anyOf: [member('JobAnswer', 'data'), accepted()],
      },
      member('SiteAuditAccepted', 'meta'),
      RUN_FACTS,
    ),
    list_rank_keywords: answer('RankKeywordsAnswer', { fieldsOf: 'keywords' }),
    get_rank_history: answer('RankHistoryAnswer'),
    list_gsc_properties: answer('GscPropertiesAnswer'),
    query_gsc: answer('GscQueriesAnswer', { fieldsOf: 'rows' }),
    list_ai_visibility_projects: answer('AiVisibilityProjectsAnswer'),
    get_share_of_voice: answer('ShareOfVoiceAnswer'),
    list_rank_projects: answer('RankProjectsAnswer'),
    create_rank_project: answer('RankProjectAnswer'),
    update_rank_project: answer('RankProjectAnswer'),
    delete_rank_project: answer('RankProjectDeletedAnswer'),
    add_rank_keywords: answer('RankKeywordsAddedAnswer'),
    update_rank_keyword: answer('RankKeywordAnswer'),
    delete_rank_keyword: answer('RankKeywordDeletedAnswer'),
    create_ai_visibility_project: answer('AiVisibilityProjectCreatedAnswer'),
    get_ai_visibility_settings: answer('AiVisibilityProjectSettingsAnswer'),
    update_ai_visibility_project: answer('AiVisibilityProjectSettingsAnswer'),
    delete_ai_visibility_project: answer('AiVisibilityProjectDeletedAnswer'),
  };
}

type ListHandler = (request: unknown, extra: unknown) => Promise<{ tools: JsonSchema[] }>;

/**
 * Adds each tool's `outputSchema` to the SDK's tools/list answer. The SDK only lists output
 * schemas it makes itself from zod, and its conversion writes ±2^53 on every integer and
 * closes every object; these are the REST document's schemas, as they are. The tools/call
 * handler (ToolCalls) does not run the SDK's output check; the results are the REST answers,
 * which test/foundation/openapi-answers.e2e-spec.ts holds to the same document.
 *
 * Call once the tools are registered.
 */
export function publishOutputSchemas(server: McpServer): void {
  const schemas = outputSchemas();
  const handlers = (server.server as unknown as { _requestHandlers: Map<string, ListHandler> })
    ._requestHandlers;
  const list = handlers.get('tools/list');
  if (!list) throw new Error('publishOutputSchemas: register the tools first');
  handlers.set('tools/list', async (request, extra) => {
    const answer = await list(request, extra);
    return {
      ...answer,
      tools: answer.tools.map((tool) => {
        const schema = schemas[String(tool.name)];
        return schema ? { ...tool, outputSchema: schema } : tool;
      }),
    };
  });
}
