import type { CorsOptions } from '@nestjs/common/interfaces/external/cors-options.interface';
import { NestExpressApplication } from '@nestjs/platform-express';
import { json } from 'express';
import { Logger } from 'nestjs-pino';
import { APP_CONFIG, AppConfig, Clock } from '@app/core';
import {
  envelopeAdapterOf,
  compressingEnd,
  applyServerTimeouts,
  bodyBounds,
  bodyStage,
  jsonBodiesOnly,
  jsonBodyOf,
  requestLifecycle,
  StaticHeaders,
} from '@app/gateway';
import { rootLoggerFor } from '@app/logging';
import { mcpBodyParseErrors } from './mcp/mcp-body';
import { mcpCorsOptions } from './mcp/mcp-access';
import { oauthBodyErrors } from './oauth/oauth-http';
import { adminTokenCheck } from './admin-routes/admin.guard';
import { httpMetrics } from './ops/http-metrics';
import { installOps } from './ops/ops.setup';
import { installPages } from './pages/pages.module';

/**
 * JSON bodies of the public API, the account area, OAuth and /mcp: the largest a client
 * sends is a few KB (a keyword, a URL, an OAuth client's metadata, a tool call). Body-parser's
 * own default. A larger body is refused with 413 PAYLOAD_TOO_LARGE, without being parsed
 * (docs/reliability.md, "Timeouts": 10 MB anonymous bodies parsed on every route slowed
 * /health/live 150-fold).
 */
const BODY_LIMIT = '100kb';
/** Admin ingestion batches (up to 10,000 GSC rows or rank checks): with the admin token only. */
const INGESTION_BODY_LIMIT = '10mb';
/** The admin API: a request without the admin token is refused by the guard, body unread. */
const ADMIN_API_URL = /^\/admin\/v1(\/|$)/i;
/** The admin ingestion routes (apps/api/src/{rank,gsc,ai-visibility}/*-ingestion.controller.ts). */
const INGESTION_URL =
  /^\/admin\/v1\/(accounts\/[^/]+\/(rank-projects|gsc-properties|ai-visibility-projects)|rank-projects\/[^/]+\/keywords|tracked-keywords\/[^/]+\/checks|gsc-properties\/[^/]+\/rows|ai-visibility-projects\/[^/]+\/scans)\/?$/i;

const API_CORS: CorsOptions = {
  origin: '*',
  methods: ['GET', 'POST', 'PATCH', 'DELETE', 'OPTIONS'],
  allowedHeaders: ['Authorization', 'Content-Type', 'X-Request-Id', 'Idempotency-Key'],
  exposedHeaders: [
    'X-Request-Id',
    'X-RateLimit-Limit',
    'X-RateLimit-Remaining',
    'X-RateLimit-Reset',
    'Retry-After',
    'Idempotent-Replayed',
  ],
  maxAge: 86_400,
};
/** Rank-collection postbacks: gzip bodies read by their route (rank-postback/), never by a parser. */
const POSTBACK_URL = /^\/collect\/dataforseo\/serp\/postback\/?$/i;
/** The JSON APIs: the public API, the account area's and the admin API (pages post forms). */
const JSON_API_URL = /^\/(api|account|admin)\/v1(\/|$)/i;
/** Cookie-authenticated paths: /account..., /oauth... (never any Access-Control-Allow-*). */
const SESSION_AREA_URL = /^\/(account|oauth)(\/|\?|#|$)/i;
/** The hosted MCP endpoint: CORS for the origins its Origin rule admits (mcp/mcp-access.ts). */
const MCP_URL = /^\/mcp(\/|\?|#|$)/i;

/** The account area's JSON API: what it answers is one person's, never kept by a cache. */
const ACCOUNT_API_URL = /^\/account\/v1(\/|\?|#|$)/i;
/** HSTS: one year, subdomains too. */
const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * The security headers of every answer (docs/operations.md, "Headers and redaction"), set
 * once per request by the first middleware: `nosniff` on everything (JSON answers included),
 * HSTS only when PUBLIC_BASE_URL is https (never on an http deployment), and
 * `Cache-Control: no-store` on /account/v1. Pages add their own (pageHeaders; the operator
 * pages' opsPageHeaders in ops/library-pages.ts).
 */
export function securityHeaders(config: AppConfig): StaticHeaders {
  const https = new URL(config.publicBaseUrl).protocol === 'https:';
  return {
    all: [
      ['X-Content-Type-Options', 'nosniff'],
      ...(https ? [['Strict-Transport-Security', HSTS] as const] : []),
    ],
    byPath: [[ACCOUNT_API_URL, [['Cache-Control', 'no-store']]]],
  };
}

/** Everything about the HTTP app that is not a module: shared by main.ts, tests and the benchmark. */
export async function configureApp(app: NestExpressApplication): Promise<NestExpressApplication> {
  envelopeAdapterOf(app).useClock(app.get(Clock));
  const config = app.get<AppConfig>(APP_CONFIG);
  configureServer(app, config);
  enableCors(app, config);
  configureBodies(app, config);
  app.enableShutdownHooks();

  // Public OpenAPI (/docs), admin OpenAPI (/admin/docs), queue dashboard (/admin/queues): docs/operations.md.
  await installOps(app);
  // The pages' view engine (account area, OAuth pages, audit reports): pages/page-views.ts.
  installPages(app);
  return app;
}

/** The HTTP server's bounds and Express settings, and the first middleware. */
function configureServer(app: NestExpressApplication, config: AppConfig): void {
  // Header, request and keep-alive bounds a slow client cannot stretch (before listen).
  applyServerTimeouts(app.getHttpServer(), config.httpTimeouts);
  app.useLogger(app.get(Logger));
  app.disable('x-powered-by');
  // The client address of per-IP throttles and logs: the socket's, unless TRUST_PROXY names
  // the proxies in front (then the nearest untrusted X-Forwarded-For entry).
  app.set('trust proxy', config.trustProxy);
  // Every body carries meta.timestamp and meta.request_id, so an ETag could never match:
  // hashing each response body would be pure cost.
  app.set('etag', false);
  // First, so it times everything: the request id and the security headers, then at close
  // the request-duration histogram by route template (docs/operations.md) and the access-log line.
  // gzip / brotli when asked (docs/decisions/0006-compression.md), prepared by the same
  // middleware. Under the JSON APIs a request that does not ask pays nothing: the envelope
  // writer and the exception filter set Vary themselves.
  app.use(
    requestLifecycle(
      rootLoggerFor(config),
      [httpMetrics()],
      securityHeaders(config),
      compressingEnd(JSON_API_URL),
    ),
  );
}

/**
 * Permissive CORS for the key-authenticated API (the spec requires it); none at all for
 * the cookie-authenticated account area and OAuth endpoints (docs/account-sessions.md).
 */
function enableCors(app: NestExpressApplication, config: AppConfig): void {
  const mcpCors = mcpCorsOptions(config.publicBaseUrl);
  app.enableCors((req: { url?: string }, callback) => {
    const url = req.url ?? '';
    callback(
      null,
      SESSION_AREA_URL.test(url) ? { origin: false } : MCP_URL.test(url) ? mcpCors : API_CORS,
    );
  });
}

/** Which bodies are parsed, with which limits, and how a refused one is answered. */
function configureBodies(app: NestExpressApplication, config: AppConfig): void {
  const carriesAdminToken = adminTokenCheck(config.adminToken);
  // One layer for all of it, passed at once by a request without a body (bodyStage).
  app.use(
    bodyStage(
      // The JSON APIs take JSON bodies only: anything else is 415 before the body parser and
      // every guard, so it is never counted (docs/pipeline-and-metering.md).
      jsonBodiesOnly(JSON_API_URL),
      // Two JSON parsers, by route: 10 MB for the admin ingestion routes with the admin token,
      // 100 KB for everything else; an /admin/v1 request without the token is parsed by neither
      // (the admin guard refuses it: 401, counted by the admin-token throttle, or 404 without
      // ADMIN_TOKEN), so anonymous bodies never cost a parse beyond 100 KB.
      json({
        limit: INGESTION_BODY_LIMIT,
        type: jsonBodyOf(
          (req) =>
            req.method === 'POST' &&
            INGESTION_URL.test(req.path) &&
            carriesAdminToken(req.headers.authorization),
        ),
      }),
      json({
        limit: BODY_LIMIT,
        type: jsonBodyOf(
          (req) =>
            !POSTBACK_URL.test(req.path) &&
            (!ADMIN_API_URL.test(req.path) || carriesAdminToken(req.headers.authorization)),
        ),
      }),
      // Depth and size bounds on the parsed body, before any guard or transform (docs/pipeline-and-metering.md).
      bodyBounds(),
      // A body that is not JSON is a protocol error where a protocol answers: JSON-RPC -32700 on
      // /mcp, OAuth invalid_request on /register, /token and /revoke (not the REST envelope).
      mcpBodyParseErrors(),
      oauthBodyErrors(),
    ),
  );
}
