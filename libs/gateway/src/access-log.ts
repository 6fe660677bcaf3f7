import type { NextFunction, Response } from 'express';
import type pino from 'pino';
import { redactUrl } from '@app/logging';
import { extractKey } from './auth.guard';
import type { ApiRequest } from './request-context';

/**
 * One structured line per request when its response closes: request id, method, URL with
 * secret query values (every spelling) and the extracted API key redacted, route, status, latency and account id. No headers are logged.
 * Health checks are not logged. (pino-http would build and serialize a child logger for
 * every request before anything is logged: about 9% of the hot path, docs/performance.md.)
 */
export function accessLog(logger: pino.Logger) {
  return (req: ApiRequest, res: Response, next: NextFunction): void => {
    const started = Date.now();
    res.once('close', () => {
      const url = req.originalUrl ?? req.url;
      if (url.startsWith('/health/')) return;
      const status = res.statusCode;
      const line = {
        req: { id: req.id, method: req.method, url: redactUrl(url, [safeKey(req)]) },
        res: { status },
        latency_ms: Date.now() - started,
        account_id: req.auth?.accountId,
        route: req.route?.path as string | undefined,
        ...(res.writableFinished ? {} : { aborted: true }),
      };
      if (status >= 500) logger.error(line, 'request failed');
      else if (status >= 400) logger.warn(line, 'request completed');
      else logger.info(line, 'request completed');
    });
    next();
  };
}

/** The key the auth guard reads from this request, so that it is redacted wherever it appears. */
export function safeKey(req: ApiRequest): string | null {
  try {
    return extractKey(req);
  } catch {
    return null;
  }
}
