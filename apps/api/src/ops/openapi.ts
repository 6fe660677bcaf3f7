import { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';

/**
 * The public endpoints in the order of the API specification (shared/spec/api-spec.md
 * "Endpoints"), each with the error statuses it can answer besides those every key-
 * authenticated route can (COMMON_ERRORS). Public /api/v1 routes added later and not listed
 * here follow in path order with the common errors.
 */
export const PUBLIC_ENDPOINTS: ReadonlyArray<{ method: string; path: string; errors: number[] }> = [
  { method: 'get', path: '/api/v1/usage', errors: [] },
  { method: 'get', path: '/api/v1/backlinks', errors: [402, 409, 422, 502] },
  { method: 'post', path: '/api/v1/keyword-research', errors: [409, 422, 502] },
  { method: 'get', path: '/api/v1/keyword-research/locations', errors: [] },
  { method: 'post', path: '/api/v1/site-audit', errors: [422] },
  { method: 'get', path: '/api/v1/jobs/{job_id}', errors: [404] },
  { method: 'get', path: '/api/v1/rank/keywords', errors: [404, 422] },
  { method: 'get', path: '/api/v1/rank/history', errors: [404, 422] },
  { method: 'get', path: '/api/v1/gsc/properties', errors: [] },
  { method: 'get', path: '/api/v1/gsc/queries', errors: [404, 422] },
  { method: 'get', path: '/api/v1/ai-visibility/projects', errors: [] },
  { method: 'get', path: '/api/v1/ai-visibility/share-of-voice', errors: [404, 422] },
];

/** Errors any key-authenticated route can answer: syntax, key, plan, limits, internal. */
export const COMMON_ERRORS = [400, 401, 403, 429, 500];

/** What each error status means on the public API (the spec's Errors table). */
const ERROR_TEXT: Record<number, string> = {
  400: 'BAD_REQUEST: malformed request syntax',
  401: 'UNAUTHORIZED: missing or invalid API key',
  402: 'PAYMENT_REQUIRED: feature quota exhausted and no credits remain',
  403: 'FORBIDDEN: the plan lacks API access',
  404: 'NOT_FOUND: unknown endpoint, or a resource not owned by the account',
  409: 'ALREADY_RUNNING: the same request is already being fetched for the account; nothing is charged',
  422: 'VALIDATION_ERROR (a parameter is missing or invalid) or UNSUPPORTED_LOCATION',
  429: 'RATE_LIMITED (monthly allowance: meta.resets_at; per minute: meta.retry_after, meta.limit) or QUOTA_EXCEEDED (feature quota)',
  500: 'SERVER_ERROR: internal error; safe to retry',
  502: 'UPSTREAM_ERROR: the outside data provider returned no data (nothing charged)',
};

const ERROR_ENVELOPE = {
  type: 'object',
  required: ['success', 'error', 'meta'],
  properties: {
    success: { type: 'boolean', enum: [false] },
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', example: 'VALIDATION_ERROR' },
        message: { type: 'string' },
        details: {},
      },
    },
    meta: {
      type: 'object',
      properties: {
        timestamp: { type: 'string', format: 'date-time' },
        request_id: { type: 'string' },
        resets_at: { type: 'string' },
        retry_after: { type: 'integer' },
        limit: { type: 'integer' },
      },
    },
  },
};

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** The full generated document (every controller not excluded), before it is split. */
function generated(app: NestExpressApplication, builder: DocumentBuilder): OpenAPIObject {
  return SwaggerModule.createDocument(app, builder.build());
}

/** The customer document: /api/v1 only, in the spec's order, with documented error responses. */
export function publicDocument(app: NestExpressApplication): OpenAPIObject {
  const doc = generated(
    app,
    new DocumentBuilder()
      .setTitle('Search-Marketing Data API')
      .setDescription(
        'Backlinks, keyword research and site audits (research), plus rank tracking, Search Console ' +
          'and AI-visibility data the account has collected (your-data). All public paths sit under /api/v1.',
      )
      .setVersion('1.2')
      .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'API key' }, 'bearer')
      .addApiKey(
        { type: 'apiKey', in: 'query', name: 'api_key', description: 'API key (discouraged)' },
        'api_key',
      )
      .addSecurityRequirements('bearer')
      .addSecurityRequirements('api_key'),
  );
  const listed = new Map(PUBLIC_ENDPOINTS.map((e, i) => [`${e.method} ${e.path}`, i]));
  const order = (path: string): number =>
    Math.min(...METHODS.map((m) => listed.get(`${m} ${path}`) ?? Number.MAX_SAFE_INTEGER));
  const paths = Object.keys(doc.paths)
    .filter((p) => p.startsWith('/api/v1/'))
    .sort((a, b) => order(a) - order(b) || a.localeCompare(b));
  const out: OpenAPIObject['paths'] = {};
  for (const path of paths) {
    const item = doc.paths[path];
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const extra =
        PUBLIC_ENDPOINTS.find((e) => e.method === method && e.path === path)?.errors ?? [];
      const statuses = [...new Set([...COMMON_ERRORS, ...extra])].sort((a, b) => a - b);
      op.responses ??= {};
      for (const status of statuses) {
        op.responses[String(status)] ??= {
          description: ERROR_TEXT[status] ?? 'Error',
          content: {
            'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } },
          },
        };
      }
    }
    out[path] = item;
  }
  doc.paths = out;
  doc.components ??= {};
  doc.components.schemas = { ...(doc.components.schemas ?? {}), ErrorEnvelope: ERROR_ENVELOPE };
  doc.tags = (doc.tags ?? []).filter((t) => t.name !== 'admin');
  return pruneSchemas(doc);
}

/** The admin document: /admin/v1 only, the admin token as the bearer. */
export function adminDocument(app: NestExpressApplication): OpenAPIObject {
  const doc = generated(
    app,
    new DocumentBuilder()
      .setTitle('Search-Marketing Data API: admin')
      .setDescription(
        'Internal operations under /admin/v1 (accounts, keys, credits, users, your-data ingestion), ' +
          'authenticated with the admin token (ADMIN_TOKEN) as a bearer. Not for customers.',
      )
      .setVersion('1.2')
      .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN' }, 'admin')
      .addSecurityRequirements('admin'),
  );
  const out: OpenAPIObject['paths'] = {};
  for (const path of Object.keys(doc.paths).sort()) {
    if (path.startsWith('/admin/v1/')) out[path] = doc.paths[path];
  }
  doc.paths = out;
  doc.components ??= {};
  doc.components.schemas = { ...(doc.components.schemas ?? {}), ErrorEnvelope: ERROR_ENVELOPE };
  return pruneSchemas(doc);
}

/** Drops component schemas no path refers to (directly or through other schemas). */
function pruneSchemas(doc: OpenAPIObject): OpenAPIObject {
  const all = doc.components?.schemas ?? {};
  const keep = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (typeof node !== 'object' || node === null) return;
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith('#/components/schemas/')) {
        const name = v.slice('#/components/schemas/'.length);
        if (!keep.has(name)) {
          keep.add(name);
          visit(all[name]);
        }
      } else visit(v);
    }
  };
  visit(doc.paths);
  doc.components!.schemas = Object.fromEntries(Object.entries(all).filter(([n]) => keep.has(n)));
  return doc;
}
