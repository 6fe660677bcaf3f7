import type { NextFunction, Response } from 'express';
import type { Params } from 'nestjs-pino';
import pino from 'pino';
import type { AppConfig } from '@app/core';
import type { ApiRequest } from './request-context';

const SECRET_PARAMS = /([?&](?:api_key|apikey|key|token)=)[^&#]*/gi;

/** The URL with secret query values (api_key) replaced, for logs. */
export function redactUrl(url: string | undefined): string {
  return (url ?? '').replace(SECRET_PARAMS, '$1[REDACTED]');
}

let rootLogger: pino.Logger | undefined;
let destination: (pino.DestinationStream & { flushSync?: () => void }) | undefined;

/**
 * The process's one pino logger: JSON lines on stdout, ISO timestamps, written
 * asynchronously in 4 KiB chunks (synchronous writes cost the request path noticeably under
 * load), written out at least every second, and flushed on shutdown and exit.
 */
export function rootLoggerFor(config: AppConfig): pino.Logger {
  if (!rootLogger) {
    const stream = pino.destination({ dest: 1, sync: false, minLength: 4096 });
    destination = stream;
    // A quiet process (the worker) must not hold lines back: write out at least every second.
    setInterval(() => {
      try {
        stream.flush();
      } catch {
        // a write is still in flight; the next tick writes it out
      }
    }, 1000).unref();
    process.once('beforeExit', flushLogs);
    process.once('exit', flushLogs);
    rootLogger = pino({ level: config.logLevel, timestamp: pino.stdTimeFunctions.isoTime }, stream);
  }
  return rootLogger;
}

/** nestjs-pino provides Nest's logger on our root logger; request lines come from accessLog(). */
export function loggerParams(config: AppConfig): Params {
  return { pinoHttp: { logger: rootLoggerFor(config) }, forRoutes: [] };
}

/**
 * One structured line per request when its response closes: request id, method, URL with
 * api_key values redacted, route, status, latency and account id. No headers are logged.
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
        req: { id: req.id, method: req.method, url: redactUrl(url) },
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

/** Writes out whatever the log buffer holds (graceful shutdown). */
export function flushLogs(): void {
  try {
    destination?.flushSync?.();
  } catch {
    // stdout closed, or a write still in flight: nothing more can be done
  }
}
