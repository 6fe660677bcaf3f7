import { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type {
  ExampleObject,
  OperationObject,
  ResponseObject,
} from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { APP_CONFIG, AppConfig, ERROR_STATUS, ErrorCode } from '@app/core';
import { answerComponents } from '@app/gateway';
import { SampleCall, codeSamples } from './code-samples';

type CostGroup = 'research' | 'your-data' | 'other';

/**
 * The public endpoints in the order of the API specification (its "Endpoints" section):
 * their cost group, what a call costs, and the errors each can answer besides those every
 * key-authenticated route can (COMMON_ERRORS; the monthly cap's 429 is common to all but the
 * your-data group). Public /api/v1 routes added later and not listed here follow in path
 * order with the common errors.
 */
export const PUBLIC_ENDPOINTS: ReadonlyArray<{
  method: string;
  path: string;
  /** Stable operation name (the typed client's and the code samples'). */
  operationId: string;
  /** The example call of its code samples (x-codeSamples). */
  sample: SampleCall;
  group: CostGroup;
  cost: string;
  errors: ErrorName[];
  /** Not in the API specification: marked `x-spec-extension: true` in the document. */
  extension?: true;
}> = [
  {
    method: 'get',
    path: '/api/v1/usage',
    operationId: 'getUsage',
    sample: {
      typescript: [
        'const { data } = await client.usage();',
        'console.log(`${data.api_calls_used} of ${data.api_calls_limit} calls used; resets ${data.resets_at}`);',
      ].join('\n'),
      pythonPrint: 'answer["data"]',
    },
    group: 'other',
    cost: 'One API call (counted in the figures it answers). No feature quota, no credits.',
    errors: [],
  },
  {
    method: 'get',
    path: '/api/v1/backlinks',
    operationId: 'getBacklinks',
    sample: {
      query: { domain: 'example.com', limit: 10 },
      typescript: [
        "const { data, meta } = await client.backlinks({ domain: 'example.com', limit: 10 });",
        'console.log(data.total_backlinks, data.backlinks.length, meta.cached);',
      ].join('\n'),
      pythonPrint: 'answer["data"]["total_backlinks"], answer["meta"]["cached"]',
    },
    group: 'research',
    cost:
      'Research call: one API call. A cache hit (meta.cached) uses no feature quota and no credit. ' +
      'Otherwise one unit of the monthly backlinks quota, or 1 credit once it is used up (402 ' +
      'PAYMENT_REQUIRED when no credit remains); page > 1 or limit > 100 always costs 1 credit. ' +
      'An error charges nothing.',
    errors: ['noCredit', 'alreadyRunning', 'validation', 'upstream'],
  },
  {
    method: 'post',
    path: '/api/v1/keyword-research',
    operationId: 'researchKeyword',
    sample: {
      body: { keyword: 'running shoes', location_code: 2840, limit: 5 },
      typescript: [
        'const { data } = await client.keywordResearch({',
        "  keyword: 'running shoes',",
        '  location_code: 2840,',
        '  limit: 5,',
        '});',
        'console.log(data.overview.search_volume, data.related_keywords.map((k) => k.keyword));',
      ].join('\n'),
      pythonPrint: 'answer["data"]["overview"]["search_volume"]',
    },
    group: 'research',
    cost:
      'Research call: one API call. A cache hit (meta.cached) uses no feature quota. Otherwise one ' +
      'unit of the monthly keyword-research quota (429 QUOTA_EXCEEDED when used up; never credits). ' +
      'An error charges nothing.',
    errors: [
      'alreadyRunning',
      'wrongContentType',
      'validation',
      'unsupportedLocation',
      'keywordQuota',
      'upstream',
    ],
  },
  {
    method: 'get',
    path: '/api/v1/keyword-research/locations',
    operationId: 'listLocations',
    sample: {
      typescript: [
        'const { data } = await client.locations();',
        'console.log(data.count, data.locations[0]);',
      ].join('\n'),
      pythonPrint: 'answer["data"]["count"]',
    },
    group: 'other',
    cost: 'One API call. No feature quota, no credits.',
    errors: [],
  },
  {
    method: 'post',
    path: '/api/v1/site-audit',
    operationId: 'startSiteAudit',
    sample: {
      body: { url: 'https://example.com/', max_pages: 50, depth: 3 },
      typescript: [
        'const job = await client.startSiteAudit({',
        "  url: 'https://example.com/',",
        '  max_pages: 50,',
        '  depth: 3,',
        '});',
        'console.log(job.job_id, job.poll);',
        '// later: const record = await client.waitForJob(job.job_id);',
      ].join('\n'),
      pythonPrint: 'answer["job_id"], answer["poll"]',
    },
    group: 'research',
    cost:
      'Research call: one API call, one crawl of the monthly crawl count and up to meta.max_pages ' +
      'pages of the rolling 30-day page budget (429 QUOTA_EXCEEDED when either is used up). A ' +
      'crawl that fails on our side is given back.',
    errors: ['wrongContentType', 'validation', 'auditQuota'],
  },
  {
    method: 'get',
    path: '/api/v1/jobs/{job_id}',
    operationId: 'getJob',
    sample: {
      path: { job_id: 'job_3kTMd92jf8AbQx0PzLw1Rv' },
      typescript: [
        "const { data } = await client.job('job_3kTMd92jf8AbQx0PzLw1Rv');",
        'console.log(data.status, data.progress);',
        "// or wait for the end: await client.waitForJob('job_3kTMd92jf8AbQx0PzLw1Rv')",
      ].join('\n'),
      pythonPrint: 'answer["data"]["status"], answer["data"]["progress"]',
    },
    group: 'other',
    cost: 'One API call however long ?wait= waits. No feature quota, no credits.',
    errors: ['notFound', 'validation'],
  },
  {
    method: 'get',
    path: '/api/v1/jobs',
    operationId: 'listJobs',
    sample: {
      query: { status: 'complete', limit: 20 },
      typescript: [
        "const { data, meta } = await client.jobs({ status: 'complete', limit: 20 });",
        'for (const job of data.jobs) console.log(job.job_id, job.status, job.data?.report_url);',
        'console.log(meta.total);',
      ].join('\n'),
      pythonPrint: 'answer["data"]["count"], answer["meta"]["total"]',
    },
    group: 'other',
    cost: 'One API call. No feature quota, no credits.',
    errors: ['validation'],
    extension: true,
  },
  yourData('/api/v1/rank/keywords', 'listRankKeywords', {
    query: { limit: 20 },
    typescript: [
      'const { data } = await client.rankKeywords({ limit: 20 });',
      'for (const k of data.keywords) console.log(k.keyword, k.current_position, k.position_change);',
    ].join('\n'),
    pythonPrint: 'answer["data"]["count"]',
  }),
  yourData('/api/v1/rank/history', 'getRankHistory', {
    query: { keyword_id: 123, days: 30 },
    typescript: [
      'const { data } = await client.rankHistory({ keyword_id: 123, days: 30 });',
      'console.log(data.keyword.keyword, data.trend);',
    ].join('\n'),
    pythonPrint: 'answer["data"]["trend"]',
  }),
  yourData(
    '/api/v1/gsc/properties',
    'listGscProperties',
    {
      typescript: [
        'const { data } = await client.gscProperties();',
        'console.log(data.properties.map((p) => p.property_uri));',
      ].join('\n'),
      pythonPrint: 'answer["data"]["count"]',
    },
    [],
  ),
  yourData('/api/v1/gsc/queries', 'queryGsc', {
    query: { property_id: 45, dim: 'query', sort: 'clicks', limit: 10 },
    typescript: [
      'const { data } = await client.gscQueries({',
      '  property_id: 45,',
      "  dim: 'query',",
      "  sort: 'clicks',",
      '  limit: 10,',
      '});',
      'console.log(data.totals, data.rows.slice(0, 3));',
    ].join('\n'),
    pythonPrint: 'answer["data"]["totals"]',
  }),
  yourData(
    '/api/v1/ai-visibility/projects',
    'listAiVisibilityProjects',
    {
      typescript: [
        'const { data } = await client.aiVisibilityProjects();',
        'console.log(data.projects.map((p) => [p.domain, p.visibility_score]));',
      ].join('\n'),
      pythonPrint: 'answer["data"]["count"]',
    },
    [],
  ),
  yourData('/api/v1/ai-visibility/share-of-voice', 'getShareOfVoice', {
    query: { project_id: 67 },
    typescript: [
      'const { data } = await client.shareOfVoice({ project_id: 67 });',
      'console.log(data.share_of_voice.brand_share_pct, data.competitors.length);',
    ].join('\n'),
    pythonPrint: 'answer["data"]["share_of_voice"]',
  }),
];

function yourData(
  path: string,
  operationId: string,
  sample: SampleCall,
  errors: ErrorName[] = ['notFound', 'validation'],
) {
  return {
    method: 'get',
    path,
    operationId,
    sample,
    group: 'your-data' as const,
    cost: 'Your-data call: one API call, never refused at the monthly cap. No feature quota, no credits.',
    errors,
  };
}

/** Errors any key-authenticated route can answer: syntax, key, plan, limits, internal. */
const COMMON_ERRORS: ErrorName[] = [
  'malformed',
  'unauthorized',
  'noApiAccess',
  'perMinute',
  'serverError',
];

interface ErrorExample {
  code: ErrorCode;
  summary: string;
  message: string;
  meta?: Record<string, unknown>;
  details?: Array<{ field: string; message: string }>;
}

/** One documented error each: its spec code and a real message (and meta members). */
export const ERROR_EXAMPLES = {
  malformed: {
    code: 'BAD_REQUEST',
    summary: 'Malformed request syntax',
    message: 'Malformed request: the body is not valid JSON.',
  },
  unauthorized: {
    code: 'UNAUTHORIZED',
    summary: 'Missing or invalid API key',
    message: 'Invalid or revoked API key.',
  },
  noCredit: {
    code: 'PAYMENT_REQUIRED',
    summary: 'Feature quota used up and no credits remain',
    message:
      'The monthly backlinks quota is used up and no credits remain. Add credits to continue.',
    meta: { credits_required: 1 },
  },
  noApiAccess: {
    code: 'FORBIDDEN',
    summary: 'The plan lacks API access',
    message: 'The free plan has no API access. Upgrade to Pro or Agency to use the API.',
  },
  notFound: {
    code: 'NOT_FOUND',
    summary: 'Unknown, or not owned by the account',
    message: 'Project not found.',
  },
  alreadyRunning: {
    code: 'ALREADY_RUNNING',
    summary: 'The same request is already being fetched; nothing charged',
    message:
      'The same request is already being fetched for this account. Retry shortly; it will be served from cache. Nothing was charged.',
  },
  idempotencyRunning: {
    code: 'ALREADY_RUNNING',
    summary: 'A request with this Idempotency-Key is still running; nothing started twice',
    message:
      'A request with this Idempotency-Key is still running. Retry shortly to get its answer; nothing is started twice.',
  },
  idempotencyReused: {
    code: 'VALIDATION_ERROR',
    summary: 'The Idempotency-Key was used with another route or body, or is malformed',
    message:
      'This Idempotency-Key was used with another request body in the last 24 hours. Use a new key for a new request.',
    details: [
      {
        field: 'Idempotency-Key',
        message:
          'This Idempotency-Key was used with another request body in the last 24 hours. Use a new key for a new request.',
      },
    ],
  },
  wrongContentType: {
    code: 'UNSUPPORTED_MEDIA_TYPE',
    summary: 'The body is not JSON',
    message:
      'Content-Type "application/x-www-form-urlencoded" is not accepted. Send the body as JSON with Content-Type: application/json.',
  },
  validation: {
    code: 'VALIDATION_ERROR',
    summary: 'A parameter is missing or invalid (one message per field)',
    message: 'limit must not be greater than 500',
    details: [{ field: 'limit', message: 'limit must not be greater than 500' }],
  },
  unsupportedLocation: {
    code: 'UNSUPPORTED_LOCATION',
    summary: 'location_code is not a supported market',
    message:
      'location_code 9999 is not a supported market. See GET /api/v1/keyword-research/locations.',
    details: [
      {
        field: 'location_code',
        message:
          'location_code 9999 is not a supported market. See GET /api/v1/keyword-research/locations.',
      },
    ],
  },
  perMinute: {
    code: 'RATE_LIMITED',
    summary: 'Per-minute limit of this endpoint (retry after meta.retry_after seconds)',
    message: 'Too many requests to this endpoint: at most 20 per minute. Retry in 12 s.',
    meta: { retry_after: 12, limit: 20 },
  },
  monthly: {
    code: 'RATE_LIMITED',
    summary: 'Monthly call allowance used up (until meta.resets_at)',
    message: 'Monthly API call limit of 20 reached. It resets on 2026-12-01.',
    meta: { resets_at: '2026-12-01', limit: 20 },
  },
  keywordQuota: {
    code: 'QUOTA_EXCEEDED',
    summary: 'Monthly keyword-research quota used up',
    message:
      'The monthly keyword-research quota of 100 lookups is used up. It resets on 2026-12-01. Cached lookups stay free.',
    meta: { resets_at: '2026-12-01', limit: 100 },
  },
  auditQuota: {
    code: 'QUOTA_EXCEEDED',
    summary: 'Monthly crawl count or rolling page budget used up (meta.quota says which)',
    message: 'Monthly site-audit crawl limit of 10 reached. It resets on 2026-12-01.',
    meta: { quota: 'site_audit_crawls_per_month', limit: 10, resets_at: '2026-12-01' },
  },
  serverError: {
    code: 'SERVER_ERROR',
    summary: 'Internal error; safe to retry',
    message: 'Internal error. It is safe to retry.',
  },
  upstream: {
    code: 'UPSTREAM_ERROR',
    summary: 'The data provider returned no data; nothing charged',
    message:
      'The data provider returned no data for this request. Nothing was charged; please try again later.',
  },
} satisfies Record<string, ErrorExample>;

type ErrorName = keyof typeof ERROR_EXAMPLES;

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
export function endpointErrors(e: (typeof PUBLIC_ENDPOINTS)[number] | undefined): ErrorName[] {
  if (!e) return [...COMMON_ERRORS, 'monthly'];
  const idempotency: ErrorName[] =
    e.method === 'post' ? ['idempotencyRunning', 'idempotencyReused'] : [];
  return [
    ...COMMON_ERRORS,
    ...(e.group === 'your-data' ? [] : ['monthly' as const]),
    ...e.errors,
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

/** The customer document: /api/v1 only, in the spec's order, every answer and error described. */
export function publicDocument(app: NestExpressApplication): OpenAPIObject {
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
  const origin = publicOrigin(app);
  if (origin) builder.addServer(origin, 'This service');
  const doc = generated(app, builder);
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
      const endpoint = PUBLIC_ENDPOINTS.find((e) => e.method === method && e.path === path);
      if (endpoint) {
        op.operationId = endpoint.operationId;
        (op as OperationObject & { 'x-codeSamples'?: unknown })['x-codeSamples'] = codeSamples(
          method,
          path,
          origin ?? SAMPLE_BASE_URL,
          endpoint.sample,
        );
        op.description = [op.description, `**Cost:** ${endpoint.cost}`]
          .filter(Boolean)
          .join('\n\n');
        if (endpoint.extension) {
          (op as OperationObject & { 'x-spec-extension'?: boolean })['x-spec-extension'] = true;
        }
      }
      op.responses = { ...successOnly(op.responses), ...errorResponses(endpointErrors(endpoint)) };
      if (method === 'post') idempotent(op);
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
