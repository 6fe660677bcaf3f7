import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Params } from 'nestjs-pino';
import pino from 'pino';
import type { AppConfig } from '@app/core';
import type { ApiRequest } from './request-context';

const SECRET_PARAMS = /([?&](?:api_key|apikey|key|token)=)[^&#]*/gi;

/** The URL with secret query values (api_key) replaced, for logs. */
export function redactUrl(url: string | undefined): string {
  return (url ?? '').replace(SECRET_PARAMS, '$1[REDACTED]');
}

function withCaller(req: IncomingMessage, val: Record<string, unknown>): Record<string, unknown> {
  const r = req as ApiRequest;
  return { ...val, account_id: r.auth?.accountId, route: r.route?.path as string | undefined };
}

/**
 * Structured JSON logs: one line per request with request id, method, route, status,
 * latency and account id. No headers are logged, and api_key values are redacted.
 */
export function loggerParams(config: AppConfig): Params {
  return {
    pinoHttp: [
      {
        level: config.logLevel,
        // Our serializers read the raw req/res directly; no per-request wrapper objects.
        wrapSerializers: false,
        genReqId: (req: IncomingMessage) => (req as ApiRequest).id,
        timestamp: () => `,"time":"${new Date().toISOString()}"`,
        customSuccessObject: (
          req: IncomingMessage,
          _res: ServerResponse,
          val: Record<string, unknown>,
        ) => withCaller(req, val),
        customErrorObject: (
          req: IncomingMessage,
          _res: ServerResponse,
          _err: Error,
          val: Record<string, unknown>,
        ) => withCaller(req, val),
        serializers: {
          req: (req: { id: string; method: string; url: string }) => ({
            id: req.id,
            method: req.method,
            url: redactUrl(req.url),
          }),
          res: (res: { statusCode: number }) => ({ status: res.statusCode }),
        },
        autoLogging: {
          ignore: (req: IncomingMessage) => (req.url ?? '').startsWith('/health/'),
        },
        customAttributeKeys: { responseTime: 'latency_ms' },
      },
      logDestination(),
    ],
  };
}

let destination: pino.DestinationStream | undefined;

/**
 * stdout, written asynchronously in 4 KiB chunks (synchronous writes cost the request
 * path noticeably under load). Flushed on exit, so a graceful shutdown loses nothing.
 */
function logDestination(): pino.DestinationStream {
  if (!destination) {
    const stream = pino.destination({ dest: 1, sync: false, minLength: 4096 });
    const flush = () => {
      try {
        stream.flushSync();
      } catch {
        // stdout closed, or a write still in flight: nothing more can be done at exit
      }
    };
    process.once('beforeExit', flush);
    process.once('exit', flush);
    destination = stream;
  }
  return destination;
}

/** Writes out whatever the log buffer holds (graceful shutdown). */
export function flushLogs(): void {
  const stream = destination as (pino.DestinationStream & { flushSync?: () => void }) | undefined;
  try {
    stream?.flushSync?.();
  } catch {
    // nothing more can be done
  }
}
