import { Logger } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule } from '@nestjs/swagger';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { NextFunction, Request, Response } from 'express';
import { APP_CONFIG, AppConfig, collectProcessMetrics } from '@app/core';
import { PageAssets } from '../pages/page-assets';
import { OpsAuth } from './ops-auth';
import { OpsQueues } from './ops-queues';
import { SampleIds, declaredEndpoints, envelopeAdapterOf, withSampleIds } from '@app/gateway';
import { DemoSamplesRepository } from './demo-samples.repository';
import { adminDocument, publicDocument } from './openapi';
import { referencePage } from './reference/reference-page';
import {
  PAGE_CACHE,
  REFERENCE_CSP,
  ReferenceAssets,
  encode,
  sendEncoded,
} from './reference/reference-assets';
import {
  QUEUE_DASHBOARD_UI,
  SWAGGER_UI_PAGES,
  amendHtml,
  opsPageHeaders,
  swaggerUiOptions,
  withViewportMeta,
  withoutOutsideLinks,
} from './library-pages';

const QUEUES_PATH = '/admin/queues';
const ADMIN_DOCS_PATH = 'admin/docs';

/**
 * Mounts the operator surfaces that are Express-level rather than Nest routes: the public
 * OpenAPI document (/docs), the admin one (/admin/docs, admin token) and the Bull Board queue
 * dashboard (/admin/queues, admin token, read-only unless QUEUE_DASHBOARD_READ_ONLY=false).
 * Without the OpsModule (a bare test module) only the public document is served. What these
 * library-written pages are given (title, favicon, viewport, no outside fonts): library-pages.ts.
 */
export async function installOps(app: NestExpressApplication): Promise<void> {
  collectProcessMetrics();
  const favicon = faviconUrl(app);
  const { auth, queues } = opsServices(app);
  const sampleIds = await demoSampleIds(app);
  // Mounted behind Nest's routes, so an API request never walks the ~20 layers these pages
  // add (docs/performance.md, "Fewer layers in front of the routes").
  envelopeAdapterOf(app).afterRoutes(() => {
    if (auth?.adminEnabled && queues) {
      installQueueDashboard(app, auth, queues);
      installAdminDocs(app, auth, favicon);
    }
    installReference(app, favicon, sampleIds);
  });
}

function configOf(app: NestExpressApplication): AppConfig | null {
  try {
    return app.get<AppConfig>(APP_CONFIG, { strict: false });
  } catch {
    return null;
  }
}

/**
 * The demo account's ids for the samples, when this deployment has the demo (`npm start`
 * seeds it before the API starts): read once, here, so a sample copied from /docs runs with
 * the demo key as printed. None without the demo account or without a database (a bare test
 * module): the samples keep their example ids (docs/api-reference.md).
 */
async function demoSampleIds(app: NestExpressApplication): Promise<SampleIds> {
  // A production deployment has no demo: an account a customer named like it is not one.
  if (configOf(app)?.production) return {};
  let repo: DemoSamplesRepository;
  try {
    repo = app.get(DemoSamplesRepository, { strict: false });
  } catch {
    return {};
  }
  try {
    return (await repo.sampleIds()) ?? {};
  } catch (err) {
    // No database at start-up: the document is still served, with the example ids.
    new Logger('Reference').warn({ err }, 'demo sample ids not read; the samples keep example ids');
    return {};
  }
}

/**
 * The public reference: the page at /docs (reference/reference-page.ts, written once from the
 * document), its fingerprinted assets at /docs/assets/, and the document itself at
 * /docs/openapi.json and /docs/openapi.yaml (SwaggerModule, without its UI).
 */
function installReference(
  app: NestExpressApplication,
  favicon: string,
  sampleIds: SampleIds,
): void {
  const doc = publicDocument(app, sampleIds);
  const assets = new ReferenceAssets();
  const calls = new Map(
    declaredEndpoints().map((e) => {
      const sample = withSampleIds(e.declaration.sample, sampleIds);
      return [
        e.declaration.operationId,
        { query: sample.query, path: sample.path, body: sample.body },
      ];
    }),
  );
  const page = encode(
    referencePage(
      doc,
      { css: assets.url('reference.css'), js: assets.url('reference.js'), favicon },
      calls,
    ),
    'text/html; charset=utf-8',
  );
  app.use('/docs/assets', assets.handler());
  app.use('/docs', (req: Request, res: Response, next: NextFunction) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !['/', '/index.html'].includes(req.path))
      return next();
    res.setHeader('Content-Security-Policy', REFERENCE_CSP);
    res.setHeader('Referrer-Policy', 'same-origin');
    sendEncoded(req, res, page, PAGE_CACHE);
  });
  SwaggerModule.setup('docs', app, doc, {
    ui: false,
    raw: ['json', 'yaml'],
    jsonDocumentUrl: 'docs/openapi.json',
    yamlDocumentUrl: 'docs/openapi.yaml',
  });
}

/** The OpsModule's admin check and queues; nulls in a module without it. */
function opsServices(app: NestExpressApplication): {
  auth: OpsAuth | null;
  queues: OpsQueues | null;
} {
  let auth: OpsAuth | null = null;
  let queues: OpsQueues | null = null;
  try {
    auth = app.get(OpsAuth, { strict: false });
    queues = app.get(OpsQueues, { strict: false });
  } catch {
    auth = null;
  }
  return { auth, queues };
}

/** Bull Board at /admin/queues (admin token), its queues attached on the first request. */
function installQueueDashboard(
  app: NestExpressApplication,
  auth: OpsAuth,
  queues: OpsQueues,
): void {
  const config = app.get<AppConfig>(APP_CONFIG);
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(QUEUES_PATH);
  const board = createBullBoard({
    queues: [],
    serverAdapter,
    options: { uiConfig: QUEUE_DASHBOARD_UI },
  });
  let attached = false;
  const attachQueues = (_req: Request, _res: Response, next: NextFunction): void => {
    if (!attached) {
      attached = true; // the queues connect on first use, not at start-up
      board.setQueues(
        queues
          .all()
          .map((q) => new BullMQAdapter(q, { readOnlyMode: config.queueDashboardReadOnly })),
      );
    }
    next();
  };
  app.use(
    QUEUES_PATH,
    opsPageHeaders,
    auth.pagesMiddleware(),
    attachQueues,
    amendHtml(withoutOutsideLinks),
    serverAdapter.getRouter(),
  );
}

/** The admin OpenAPI document and its reference page at /admin/docs (admin token). */
function installAdminDocs(app: NestExpressApplication, auth: OpsAuth, favicon: string): void {
  app.use(
    `/${ADMIN_DOCS_PATH}`,
    opsPageHeaders,
    auth.pagesMiddleware(),
    amendHtml(withViewportMeta, SWAGGER_UI_PAGES),
  );
  SwaggerModule.setup(ADMIN_DOCS_PATH, app, adminDocument(app), {
    ...swaggerUiOptions('Admin API reference', favicon),
    jsonDocumentUrl: `${ADMIN_DOCS_PATH}/openapi.json`,
    yamlDocumentUrl: `${ADMIN_DOCS_PATH}/openapi.yaml`,
  });
}

/** The pages' favicon (its hashed URL), or /favicon.ico in a module without the page kit. */
function faviconUrl(app: NestExpressApplication): string {
  try {
    return app.get(PageAssets, { strict: false }).url('favicon.svg');
  } catch {
    return '/favicon.ico';
  }
}
