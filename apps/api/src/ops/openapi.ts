import { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type {
  ExampleObject,
  OperationObject,
  ResponseObject,
} from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { APP_CONFIG, AppConfig, ERROR_STATUS } from '@app/core';
import {
  DeclaredEndpoint,
  ERROR_EXAMPLES,
  ErrorExample,
  ErrorName,
  SampleIds,
  answerComponents,
  declaredEndpoints,
  withSampleIds,
} from '@app/gateway';
import { codeSamples } from './code-samples';
import { RECORDED_ANSWERS } from './openapi-examples';

/**
 * The operations of the API specification's "Endpoints" section, in its order: the public
 * document lists their paths first, in this order; any other public route follows in path
 * order. What each operation is, costs and answers is its @Endpoint declaration, beside the
 * handler (libs/gateway/src/endpoint.ts).
 */
export const SPEC_ORDER = [
  'getUsage',
  'getBacklinks',
  'researchKeyword',
  'listLocations',
  'startSiteAudit',
  'getJob',
  'listJobs',
  'listRankKeywords',
  'getRankHistory',
  'listGscProperties',
  'queryGsc',
  'listAiVisibilityProjects',
  'getShareOfVoice',
];

/** Errors any key-authenticated route can answer: syntax, key, plan, limits, internal. */
const COMMON_ERRORS: ErrorName[] = [
  'malformed',
  'unauthorized',
  'noApiAccess',
  'perMinute',
  'serverError',
];

/** What each error status means on the public API (the spec's Errors table). */
const STATUS_TEXT: Record<number, string> = {
  400: 'Malformed request syntax',
  401: 'Missing or invalid API key',
  402: 'Feature quota used up and no credits remain',
  403: 'The plan lacks API access',
  404: 'Unknown, or not owned by the account',
  409: 'The same request is already being fetched for the account; nothing is charged',
  415: 'The body is not JSON: send Content-Type: application/json',
  422: 'A parameter is missing or invalid',
  429: 'A limit is reached: see meta (retry_after and limit, or resets_at)',
  500: 'Internal error; safe to retry',
  502: 'The outside data provider returned no data; nothing is charged',
};

/** The error names an endpoint documents: the common ones, the monthly cap's, its own. */
export function endpointErrors(e: DeclaredEndpoint | undefined): ErrorName[] {
  if (!e) return [...COMMON_ERRORS, 'monthly'];
  const idempotency: ErrorName[] =
    e.method === 'post' ? ['idempotencyRunning', 'idempotencyReused'] : [];
  return [
    ...COMMON_ERRORS,
    ...(e.declaration.group === 'your-data' ? [] : ['monthly' as const]),
    ...e.declaration.errors,
    ...idempotency,
  ];
}

/** The error responses of one operation, by status, each with one example per spec code. */
function errorResponses(names: ErrorName[]): Record<string, ResponseObject> {
  const byStatus = new Map<number, ErrorName[]>();
  for (const name of names) {
    const status = ERROR_STATUS[ERROR_EXAMPLES[name].code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), name]);
  }
  const out: Record<string, ResponseObject> = {};
  for (const status of [...byStatus.keys()].sort((a, b) => a - b)) {
    const examples: Record<string, ExampleObject> = {};
    for (const name of byStatus.get(status)!) {
      const e: ErrorExample = ERROR_EXAMPLES[name];
      examples[name] = {
        summary: `${e.code}: ${e.summary}`,
        value: {
          success: false,
          error: { code: e.code, message: e.message, ...(e.details ? { details: e.details } : {}) },
          meta: {
            timestamp: '2026-11-24T09:30:00.000+00:00',
            request_id: 'req_8f14e45fceea167a',
            ...(e.meta ?? {}),
          },
        },
      };
    }
    const codes = [
      ...new Set(Object.values(examples).map((x) => (x.value as ErrorBody).error.code)),
    ];
    out[String(status)] = {
      description: `${codes.join(' or ')}: ${STATUS_TEXT[status] ?? 'Error'}`,
      content: {
        'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' }, examples },
      },
    };
  }
  return out;
}

type ErrorBody = { error: { code: string } };

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** The full generated document (every controller not excluded), before it is split. */
function generated(app: NestExpressApplication, builder: DocumentBuilder): OpenAPIObject {
  return SwaggerModule.createDocument(app, builder.build());
}

const API_DESCRIPTION = `Backlinks, keyword research and site audits (research), plus rank tracking, Search Console and AI-visibility data the account has collected (your-data). All public paths sit under /api/v1.

**Authentication.** Send the API key as \`Authorization: Bearer <API_KEY>\` (or, discouraged, as the \`api_key\` query parameter). Keys are opaque strings starting \`seo_live_\`, made in the account area and shown once.

**Answers.** Every answer is JSON: \`{success: true, data, meta}\` or \`{success: false, error: {code, message, details?}, meta}\`. The one exception is the 202 of POST /site-audit, which has job_id, status and poll at the top level. meta always has timestamp and request_id.

**Costs.** Every request that reaches an endpoint counts as one API call against the monthly allowance (GET /usage shows it). Research calls also draw feature quota or credits; your-data calls draw neither and are never refused at the monthly cap. Each operation says what it costs.

**Limits.** Per minute and per endpoint (Pro 20, Agency 60): a 429 RATE_LIMITED with meta.retry_after and meta.limit; waiting retry_after seconds always clears it.

**Retrying a POST.** Send an \`Idempotency-Key\` header (1-255 printable ASCII characters, e.g. a UUID) and reuse it on each retry of the same request. Within 24 hours a repeat with the same key, route and JSON body gets the first answer again (status and body) with \`Idempotent-Replayed: true\`: nothing is started or charged again, and the repeat counts as one API call. The same key with another route or body is 422 VALIDATION_ERROR; while the first request still runs, 409 ALREADY_RUNNING. 5xx answers and refusals before the endpoint (401, 403, 429) are not kept, so their retry runs again.`;

/** The document's title, description, security schemes and server. */
function publicBuilder(origin: string | null): DocumentBuilder {
  const builder = new DocumentBuilder()
    .setTitle('Search-Marketing Data API')
    .setDescription(API_DESCRIPTION)
    .setVersion('1.2')
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'API key (opaque)',
        description: 'The API key: Authorization: Bearer seo_live_…',
      },
      'bearer',
    )
    .addApiKey(
      { type: 'apiKey', in: 'query', name: 'api_key', description: 'API key (discouraged)' },
      'api_key',
    )
    .addSecurityRequirements('bearer')
    .addSecurityRequirements('api_key');
  if (origin) builder.addServer(origin, 'This service');
  return builder;
}

/** The /api/v1 paths: those of SPEC_ORDER's operations in its order, then the others by path. */
function specOrdered(paths: string[], endpoints: Map<string, DeclaredEndpoint>): string[] {
  const rank = (path: string): number =>
    Math.min(
      ...METHODS.map((m) => {
        const i = SPEC_ORDER.indexOf(endpoints.get(`${m} ${path}`)?.declaration.operationId ?? '');
        return i < 0 ? Number.MAX_SAFE_INTEGER : i;
      }),
    );
  return paths
    .filter((p) => p.startsWith('/api/v1/'))
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

type PublicOperation = OperationObject & {
  'x-codeSamples'?: unknown;
  'x-spec-extension'?: boolean;
};

/** One operation as its declaration describes it: name, samples, cost, errors, idempotency. */
function describeOperation(
  op: PublicOperation,
  method: string,
  path: string,
  endpoint: DeclaredEndpoint | undefined,
  sampleBase: string,
  sampleIds: SampleIds,
): void {
  if (endpoint) {
    const d = endpoint.declaration;
    op.operationId = d.operationId;
    op['x-codeSamples'] = codeSamples(method, path, sampleBase, withSampleIds(d.sample, sampleIds));
    op.description = [op.description, `**Cost:** ${d.cost}`].filter(Boolean).join('\n\n');
    if (d.extension) op['x-spec-extension'] = true;
  }
  op.responses = { ...successOnly(op.responses), ...errorResponses(endpointErrors(endpoint)) };
  if (endpoint) recordedExample(op, endpoint.declaration.operationId);
  if (method === 'post') idempotent(op);
}

/**
 * The operation's recorded real answer (openapi-examples.ts) as the `example` of its success
 * response, in place of the placeholders the schema alone would suggest (`0`, `"string"`).
 */
function recordedExample(op: OperationObject, operationId: string): void {
  const recorded = RECORDED_ANSWERS[operationId];
  const response = recorded && op.responses?.[String(recorded.status)];
  const media = response && 'content' in response && response.content?.['application/json'];
  if (media) media.example = recorded.body;
}

/**
 * The customer document: /api/v1 only, in the spec's order, every answer and error described.
 * `sampleIds`: real ids for the example ids of the samples (the demo account's, when this
 * deployment has one: DemoSamplesRepository); without them the samples name SAMPLE_IDS.
 */
export function publicDocument(
  app: NestExpressApplication,
  sampleIds: SampleIds = {},
): OpenAPIObject {
  const origin = publicOrigin(app);
  const doc = generated(app, publicBuilder(origin));
  const endpoints = new Map(declaredEndpoints().map((e) => [`${e.method} ${e.path}`, e]));
  const sampleBase = origin ?? SAMPLE_BASE_URL;
  const out: OpenAPIObject['paths'] = {};
  for (const path of specOrdered(Object.keys(doc.paths), endpoints)) {
    const item = doc.paths[path];
    for (const method of METHODS) {
      const op = item[method];
      const endpoint = endpoints.get(`${method} ${path}`);
      if (op) describeOperation(op, method, path, endpoint, sampleBase, sampleIds);
    }
    out[path] = item;
  }
  doc.paths = out;
  doc.components ??= {};
  doc.components.schemas = { ...(doc.components.schemas ?? {}), ...answerComponents() };
  doc.tags = (doc.tags ?? []).filter((t) => t.name !== 'admin');
  return requestNames(pruneSchemas(doc));
}

/**
 * Every POST under /api/v1 takes an optional Idempotency-Key, and its success answers may be
 * replays (the gateway's IdempotencyGuard; docs/api.md "Idempotency-Key").
 */
function idempotent(op: OperationObject): void {
  op.parameters = [
    ...(op.parameters ?? []),
    {
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        'Makes retries of this POST safe: a repeat within 24 hours with the same key, route and JSON body ' +
        'answers the first answer again (with Idempotent-Replayed: true) and starts and charges nothing. ' +
        '1-255 printable ASCII characters; a new one (e.g. a UUID) per logical request.',
      schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]+$' },
      example: '5f0c1d8e-4b8a-4d3e-9a43-2f9e1c0b7a61',
    },
  ];
  for (const [status, response] of Object.entries(op.responses ?? {})) {
    if (!status.startsWith('2') || !response || !('content' in response)) continue;
    response.headers = {
      ...(response.headers ?? {}),
      'Idempotent-Replayed': {
        description:
          '"true" when this is the kept answer of an earlier request with the same Idempotency-Key',
        schema: { type: 'string', enum: ['true'] },
      },
    };
  }
}

/** Request body schemas named for what they are (`KeywordResearchDto` → `KeywordResearchRequest`). */
function requestNames(doc: OpenAPIObject): OpenAPIObject {
  const renames = new Map<string, string>();
  for (const name of Object.keys(doc.components?.schemas ?? {})) {
    if (!name.endsWith('Dto')) continue;
    const base = name.slice(0, -'Dto'.length);
    renames.set(name, base.endsWith('Request') ? base : `${base}Request`);
  }
  let text = JSON.stringify(doc);
  for (const [from, to] of renames)
    text = text.split(`"#/components/schemas/${from}"`).join(`"#/components/schemas/${to}"`);
  const out = JSON.parse(text) as OpenAPIObject;
  out.components!.schemas = Object.fromEntries(
    Object.entries(out.components!.schemas!).map(([n, s]) => [renames.get(n) ?? n, s]),
  );
  return out;
}

/** The documented success answers; Nest's bare default (e.g. a "201" on a POST) is dropped. */
function successOnly(responses: OperationObject['responses'] = {}): OperationObject['responses'] {
  return Object.fromEntries(
    Object.entries(responses).filter(
      ([, r]) => r !== undefined && 'content' in r && r.content !== undefined,
    ),
  );
}

/** The base URL of the samples when the document is made without configuration (openapi:write). */
const SAMPLE_BASE_URL = 'http://localhost:3000';

/** PUBLIC_BASE_URL, the document's server (absent in a bare test module). */
function publicOrigin(app: NestExpressApplication): string | null {
  try {
    return app.get<AppConfig>(APP_CONFIG, { strict: false }).publicBaseUrl;
  } catch {
    return null;
  }
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
  doc.components.schemas = { ...(doc.components.schemas ?? {}), ...answerComponents() };
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
