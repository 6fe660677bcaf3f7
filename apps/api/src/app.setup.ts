import type { CorsOptions } from '@nestjs/common/interfaces/external/cors-options.interface';
import { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { Logger } from 'nestjs-pino';
import { APP_CONFIG, AppConfig, Clock } from '@app/core';
import { EnvelopeExpressAdapter, accessLog, bodyBounds, requestIdMiddleware } from '@app/gateway';
import { rootLoggerFor } from '@app/logging';

export const BODY_LIMIT = '10mb';

const API_CORS: CorsOptions = {
  origin: '*',
  methods: ['GET', 'POST', 'PATCH', 'DELETE', 'OPTIONS'],
  allowedHeaders: ['Authorization', 'Content-Type', 'X-Request-Id'],
  exposedHeaders: [
    'X-Request-Id',
    'X-RateLimit-Limit',
    'X-RateLimit-Remaining',
    'X-RateLimit-Reset',
    'Retry-After',
  ],
  maxAge: 86_400,
};
/** Cookie-authenticated paths: /account..., /oauth... (never any Access-Control-Allow-*). */
const SESSION_AREA_URL = /^\/(account|oauth)(\/|\?|#|$)/i;

/** Everything about the HTTP app that is not a module: shared by main.ts, tests and the benchmark. */
export function configureApp(app: NestExpressApplication): NestExpressApplication {
  const adapter = app.getHttpAdapter();
  if (!(adapter instanceof EnvelopeExpressAdapter)) {
    throw new Error(
      'The API must be created with EnvelopeExpressAdapter (it writes the success envelope)',
    );
  }
  adapter.useClock(app.get(Clock));
  app.useLogger(app.get(Logger));
  app.disable('x-powered-by');
  // Every body carries meta.timestamp and meta.request_id, so an ETag could never match:
  // hashing each response body would be pure cost.
  app.set('etag', false);
  app.use(requestIdMiddleware);
  app.use(accessLog(rootLoggerFor(app.get<AppConfig>(APP_CONFIG))));
  // Permissive CORS for the key-authenticated API (the spec requires it); none at all for
  // the cookie-authenticated account area and OAuth endpoints (docs/account-sessions.md).
  app.enableCors((req: { url?: string }, callback) =>
    callback(null, SESSION_AREA_URL.test(req.url ?? '') ? { origin: false } : API_CORS),
  );
  app.useBodyParser('json', { limit: BODY_LIMIT });
  // Depth and size bounds on the parsed body, before any guard or transform (docs/pipeline-and-metering.md).
  app.use(bodyBounds());
  app.enableShutdownHooks();

  const document = SwaggerModule.createDocument(
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
      .addSecurityRequirements('api_key')
      .build(),
  );
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'docs/openapi.json',
    yamlDocumentUrl: 'docs/openapi.yaml',
  });
  return app;
}
