import type { NextFunction, Response } from 'express';
import type pino from 'pino';
import { redactUrl } from '@app/logging';
import { extractKey } from './auth.guard';
import { assignRequestId } from './request-id';
import type { ApiRequest } from './request-context';

/** Told of every response when it closes (the request-duration histogram), with its duration in seconds. */
export type ResponseObserver = (req: ApiRequest, res: Response, seconds: number) => void;

/** Response headers as name/value pairs, built once at start-up. */
export type HeaderList = ReadonlyArray<readonly [name: string, value: string]>;

/**
 * The static headers of every answer, set before any handler runs (a handler may still set
 * its own): `all` on every response, each `byPath` list when the request's URL matches.
 */
export interface StaticHeaders {
  all: HeaderList;
  byPath?: ReadonlyArray<readonly [url: RegExp, headers: HeaderList]>;
}

const NO_HEADERS: StaticHeaders = { all: [] };

/**
 * The first middleware: gives the request its id (X-Request-Id), sets the static headers
 * (security headers: app.setup.ts), and when its response closes runs the observers and
 * writes one structured line: request id, method, URL with secret query values (every
 * spelling), key-shaped parts, audit ids and the extracted API key redacted, route, status,
 * latency and account id. No headers are logged; health checks are not logged. One
 * middleware and one `close` listener for all of it: each layer and listener is paid on
 * every request (docs/performance.md). pino-http would build and serialize a child logger
 * for every request before anything is logged: about 9% of the hot path.
 */
export function requestLifecycle(
  logger: pino.Logger,
  observers: readonly ResponseObserver[] = [],
  headers: StaticHeaders = NO_HEADERS,
  /** Run first for every request (the compressing res.end): no middleware layer of its own. */
  prepare?: (req: ApiRequest, res: Response) => void,
) {
  const { all, byPath = [] } = headers;
  return (req: ApiRequest, res: Response, next: NextFunction): void => {
    if (prepare) prepare(req, res);
    assignRequestId(req, res);
    for (let i = 0; i < all.length; i++) res.setHeader(all[i][0], all[i][1]);
    for (let i = 0; i < byPath.length; i++) {
      if (!byPath[i][0].test(req.url)) continue;
      for (const [name, value] of byPath[i][1]) res.setHeader(name, value);
    }
    const started = process.hrtime.bigint();
    res.once('close', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      for (const observe of observers) observe(req, res, seconds);
      logLine(logger, req, res, seconds);
    });
    next();
  };
}

function logLine(logger: pino.Logger, req: ApiRequest, res: Response, seconds: number): void {
  const url = req.originalUrl ?? req.url;
  if (url.startsWith('/health/')) return;
  const status = res.statusCode;
  const line = {
    req: { id: req.id, method: req.method, url: redactUrl(url, [safeKey(req)]) },
    res: { status },
    latency_ms: Math.round(seconds * 1000),
    account_id: req.auth?.accountId,
    route: req.route?.path as string | undefined,
    ...(res.writableFinished ? {} : { aborted: true }),
  };
  if (status >= 500) logger.error(line, 'request failed');
  else if (status >= 400) logger.warn(line, 'request completed');
  else logger.info(line, 'request completed');
}

/** The key the auth guard reads from this request, so that it is redacted wherever it appears. */
export function safeKey(req: ApiRequest): string | null {
  try {
    return extractKey(req);
  } catch {
    return null;
  }
}
