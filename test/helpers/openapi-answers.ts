import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

type Json = Record<string, unknown>;

export interface OpenApiDoc {
  paths: Record<string, Record<string, { responses?: Record<string, ResponseDoc> }>>;
  components?: { schemas?: Record<string, unknown> };
}

interface ResponseDoc {
  content?: Record<string, { schema?: unknown; examples?: Record<string, { value?: unknown }> }>;
}

const DOC_ID = 'openapi.json';

/**
 * OpenAPI 3.0 schema objects → JSON Schema for ajv: `nullable: true` becomes a null
 * alternative, and every object that lists its properties is closed
 * (`additionalProperties: false`) unless it says otherwise, so an answer member the document
 * does not describe fails validation too. The served document itself stays open.
 */
function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (typeof node !== 'object' || node === null) return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) {
    // example(s) hold answer values, not schemas
    out[k] = k === 'example' || k === 'examples' || k === 'enum' ? v : toJsonSchema(v);
  }
  if (out.properties !== undefined && out.additionalProperties === undefined)
    out.additionalProperties = false;
  if (out.nullable === true) {
    delete out.nullable;
    if (typeof out.type === 'string') {
      out.type = [out.type, 'null'];
      if (Array.isArray(out.enum)) out.enum = [...(out.enum as unknown[]), null];
      return out;
    }
    return { anyOf: [out, { type: 'null' }] };
  }
  return out;
}

/** Validates real answers against the served public OpenAPI document. */
export class AnswerValidator {
  private readonly ajv = new Ajv({ strict: false, allErrors: true });
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(readonly doc: OpenApiDoc) {
    addFormats(this.ajv);
    this.ajv.addSchema(
      { $id: DOC_ID, components: { schemas: toJsonSchema(doc.components?.schemas ?? {}) } },
      DOC_ID,
    );
  }

  /** The documented response of an operation for a status, or undefined. */
  response(method: string, path: string, status: number): ResponseDoc | undefined {
    return this.doc.paths[path]?.[method]?.responses?.[String(status)];
  }

  /**
   * Problems of `body` as the answer of `method path` with `status`: an undocumented status,
   * a body outside the schema, or an error code none of that status' examples shows.
   */
  problems(method: string, path: string, status: number, body: unknown): string[] {
    const response = this.response(method, path, status);
    if (!response) return [`${method} ${path}: status ${status} is not documented`];
    const media = response.content?.['application/json'];
    if (!media?.schema) return [`${method} ${path} ${status}: no JSON schema documented`];
    const key = `${method} ${path} ${status}`;
    let validate = this.compiled.get(key);
    if (!validate) {
      const schema = toJsonSchema(media.schema) as Json;
      const ref = schema.$ref;
      validate = this.ajv.compile(
        typeof ref === 'string' && ref.startsWith('#/') ? { $ref: `${DOC_ID}${ref}` } : schema,
      );
      this.compiled.set(key, validate);
    }
    const out: string[] = [];
    if (!validate(body)) {
      for (const e of validate.errors ?? [])
        out.push(`${key}: ${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
    }
    if (status >= 400) {
      const code = (body as { error?: { code?: unknown } })?.error?.code;
      const codes = this.documentedCodes(method, path, status);
      if (!codes.includes(String(code)))
        out.push(`${key}: code ${String(code)} is not among the documented ${codes.join(', ')}`);
    }
    return out;
  }

  /** The error codes the examples of a documented error status show. */
  documentedCodes(method: string, path: string, status: number): string[] {
    const examples = this.response(method, path, status)?.content?.['application/json']?.examples;
    return Object.values(examples ?? {}).map(
      (e) => (e.value as { error: { code: string } }).error.code,
    );
  }

  /** Every (operation, status, code) the document promises: success statuses and error codes. */
  promises(): string[] {
    const out: string[] = [];
    for (const [path, item] of Object.entries(this.doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        for (const status of Object.keys(op.responses ?? {})) {
          const n = Number(status);
          if (n < 400) out.push(`${method} ${path} ${n}`);
          else
            for (const code of new Set(this.documentedCodes(method, path, n)))
              out.push(`${method} ${path} ${n} ${code}`);
        }
      }
    }
    return out;
  }
}

/** A call's answer: its status and JSON body. */
export type CallAnswer = { status: number; body: Record<string, unknown> };

/** How a suite sends a request with a key (or none), and the ids its fixtures made. */
export interface CallContext {
  get: (key: string | null, path: string, query?: Record<string, unknown>) => Promise<CallAnswer>;
  post: (key: string | null, path: string, body: unknown) => Promise<CallAnswer>;
  patch: (key: string | null, path: string, body: unknown) => Promise<CallAnswer>;
  del: (key: string | null, path: string) => Promise<CallAnswer>;
  /** Origin of the local site the audits crawl. */
  siteOrigin: () => string;
  /**
   * The account's own rank project and keyword, GSC property and AI-visibility project, and
   * a rank project, keyword and AI-visibility project of its own that the delete calls may
   * remove.
   */
  ids: {
    project: number;
    keyword: number;
    property: number;
    aiProject: number;
    spareProject: number;
    spareKeyword: number;
    spareAiProject: number;
  };
}

/** A new domain for each create call (so that it answers 201). */
let createdDomains = 0;

/** A valid body of POST /api/v1/ai-visibility/projects, of the domain given. */
export const aiProjectBody = (domain: string) => ({
  domain,
  brand_name: 'Example',
  brand_aliases: ['Example Inc'],
  target_country: 'US',
  target_language: 'en',
  ai_engine: 'chatgpt',
  tracking_frequency: 'weekly',
  prompts: ['best running shoes for beginners', 'which running shoe brand lasts longest'],
  competitors: [{ name: 'Rival', domain: 'rival.com' }],
});

/**
 * A valid call of each public operation ("<method> <OpenAPI path>"), for the account given:
 * test/foundation/openapi-answers.e2e-spec.ts validates its answers against the document, and
 * test/foundation/endpoint-declarations.e2e-spec.ts checks that every declared route has one.
 */
export function answerCalls(
  c: CallContext,
): Record<string, (key: string | null) => Promise<CallAnswer>> {
  return {
    'get /api/v1/usage': (key) => c.get(key, '/api/v1/usage'),
    'get /api/v1/backlinks': (key) => c.get(key, '/api/v1/backlinks', { domain: 'example.com' }),
    'post /api/v1/keyword-research': (key) =>
      c.post(key, '/api/v1/keyword-research', { keyword: 'running shoes', limit: 3 }),
    'get /api/v1/keyword-research/locations': (key) =>
      c.get(key, '/api/v1/keyword-research/locations'),
    'post /api/v1/site-audit': (key) =>
      c.post(key, '/api/v1/site-audit', { url: `${c.siteOrigin()}/`, max_pages: 5, depth: 2 }),
    'get /api/v1/jobs/{job_id}': (key) => c.get(key, '/api/v1/jobs/job_3kTMd92jf8AbQx0PzLw1Rv'),
    'get /api/v1/jobs': (key) => c.get(key, '/api/v1/jobs', { limit: 5 }),
    'get /api/v1/rank/keywords': (key) => c.get(key, '/api/v1/rank/keywords'),
    'get /api/v1/rank/history': (key) =>
      c.get(key, '/api/v1/rank/history', { keyword_id: c.ids.keyword }),
    'get /api/v1/rank/projects': (key) => c.get(key, '/api/v1/rank/projects'),
    'post /api/v1/rank/projects': (key) =>
      c.post(key, '/api/v1/rank/projects', { domain: `new-${++createdDomains}.example.com` }),
    'patch /api/v1/rank/projects/{project_id}': (key) =>
      c.patch(key, `/api/v1/rank/projects/${c.ids.project}`, { name: 'Example' }),
    'delete /api/v1/rank/projects/{project_id}': (key) =>
      c.del(key, `/api/v1/rank/projects/${c.ids.spareProject}`),
    'post /api/v1/rank/projects/{project_id}/keywords': (key) =>
      c.post(key, `/api/v1/rank/projects/${c.ids.project}/keywords`, {
        keywords: ['running shoes', { keyword: 'Running  Shoes', device: 'desktop' }],
      }),
    'patch /api/v1/rank/keywords/{keyword_id}': (key) =>
      c.patch(key, `/api/v1/rank/keywords/${c.ids.keyword}`, { status: 'active' }),
    'delete /api/v1/rank/keywords/{keyword_id}': (key) =>
      c.del(key, `/api/v1/rank/keywords/${c.ids.spareKeyword}`),
    'get /api/v1/gsc/properties': (key) => c.get(key, '/api/v1/gsc/properties'),
    'get /api/v1/gsc/queries': (key) =>
      c.get(key, '/api/v1/gsc/queries', { property_id: c.ids.property }),
    'get /api/v1/ai-visibility/projects': (key) => c.get(key, '/api/v1/ai-visibility/projects'),
    'get /api/v1/ai-visibility/share-of-voice': (key) =>
      c.get(key, '/api/v1/ai-visibility/share-of-voice', { project_id: c.ids.aiProject }),
    'post /api/v1/ai-visibility/projects': (key) =>
      c.post(
        key,
        '/api/v1/ai-visibility/projects',
        aiProjectBody(`ai-${++createdDomains}.example.com`),
      ),
    'get /api/v1/ai-visibility/projects/{project_id}/settings': (key) =>
      c.get(key, `/api/v1/ai-visibility/projects/${c.ids.aiProject}/settings`),
    'patch /api/v1/ai-visibility/projects/{project_id}': (key) =>
      c.patch(key, `/api/v1/ai-visibility/projects/${c.ids.aiProject}`, {
        tracking_frequency: 'weekly',
      }),
    'delete /api/v1/ai-visibility/projects/{project_id}': (key) =>
      c.del(key, `/api/v1/ai-visibility/projects/${c.ids.spareAiProject}`),
  };
}
