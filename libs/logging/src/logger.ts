import type { Params } from 'nestjs-pino';
import pino from 'pino';
import type { AppConfig } from '@app/core';

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

/** nestjs-pino provides Nest's logger on our root logger; request lines come from the gateway's accessLog(). */
export function loggerParams(config: AppConfig): Params {
  return { pinoHttp: { logger: rootLoggerFor(config) }, forRoutes: [] };
}

/** Writes out whatever the log buffer holds (graceful shutdown). */
export function flushLogs(): void {
  try {
    destination?.flushSync?.();
  } catch {
    // stdout closed, or a write still in flight: nothing more can be done
  }
}
