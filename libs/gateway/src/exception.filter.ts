import { allowedMethods } from './allowed-methods';
import {
  ArgumentsHost,
  Catch,
  ExceptionFilter,
  HttpException,
  Injectable,
  Logger,
} from '@nestjs/common';
import type { Response } from 'express';
import { ApiError, Clock, RefusalReason, codeOfStatus, metrics } from '@app/core';
import { endJson, errorEnvelope } from './envelope';
import { ApiRequest } from './request-context';
import { redactUrl } from '@app/logging';
import { safeKey } from './access-log';
import { DEPENDENCY_RETRY_AFTER_SECONDS, DependencyHealth } from '@app/database';
import { IdempotentReplay } from './idempotency';

/**
 * Every error becomes the error envelope. ApiError carries its own code; Nest's and the
 * body parser's errors are translated; anything else is 500 SERVER_ERROR with nothing
 * internal in the answer (the log has the details).
 */
@Catch()
@Injectable()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('ExceptionFilter');

  constructor(
    private readonly clock: Clock,
    private readonly dependencies: DependencyHealth,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const req = ctx.getRequest<ApiRequest>();
    const res = ctx.getResponse<Response>();
    // A repeat of an Idempotency-Key: the kept answer, as it was (idempotency.guard.ts).
    if (exception instanceof IdempotentReplay) {
      if (!res.headersSent) exception.write(res);
      return;
    }
    const { error, dependency } = this.classify(exception, req);
    const refusal = refusalReason(error);
    if (refusal) metrics.refusals.inc({ reason: refusal });

    if (
      !dependency &&
      error.status >= 500 &&
      error.code !== 'UPSTREAM_ERROR' &&
      error.code !== 'SERVICE_UNAVAILABLE'
    ) {
      this.logger.error(
        {
          err: exception,
          request_id: req.id,
          url: redactUrl(req.originalUrl ?? req.url, [safeKey(req)]),
        },
        'Unhandled error',
      );
    }
    if (res.headersSent) return;
    for (const [name, value] of Object.entries(error.headers ?? {}))
      res.setHeader(name, String(value));
    res.status(error.status);
    endJson(res, errorEnvelope(error, req.id, this.clock.now()));
  }

  /**
   * The error to answer; `dependency`: PostgreSQL or Redis unreachable, or a database bound
   * hit (counted and logged by DependencyHealth, not as an unhandled error).
   */
  private classify(exception: unknown, req: ApiRequest): { error: ApiError; dependency: boolean } {
    // PostgreSQL or Redis unreachable: counted and logged once per outage by
    // DependencyHealth (no stack per request); the client may retry in a moment.
    if (this.dependencies.requestFailed(exception)) {
      return {
        error: retryableServerError(
          'Internal error: a dependency is unavailable. It is safe to retry.',
        ),
        dependency: true,
      };
    }
    // PostgreSQL up but a statement or lock wait hit its bound, or no pool slot came free in
    // time: the same clean, retryable 500, counted (db_busy_total), not an outage.
    if (this.dependencies.requestBusy(exception)) {
      return {
        error: retryableServerError('Internal error: the database is busy. It is safe to retry.'),
        dependency: true,
      };
    }
    return { error: this.toApiError(exception, req), dependency: false };
  }

  private toApiError(exception: unknown, req: ApiRequest): ApiError {
    if (exception instanceof ApiError) return exception;
    const translated =
      (exception instanceof HttpException ? fromHttpException(exception, req) : null) ??
      fromBodyParserType((exception as { type?: string } | null)?.type) ??
      fromExposedClientStatus(exception);
    if (translated) return translated;
    return new ApiError('SERVER_ERROR', 'Internal error. It is safe to retry.', {
      cause: exception,
    });
  }
}

/** 500 SERVER_ERROR with Retry-After: a dependency is down or busy. */
function retryableServerError(message: string): ApiError {
  return new ApiError('SERVER_ERROR', message, {
    headers: { 'Retry-After': DEPENDENCY_RETRY_AFTER_SECONDS },
  });
}

/** Nest's HttpException (router 404, body parser 400/413, ...); null for a 5xx. */
function fromHttpException(exception: HttpException, req: ApiRequest): ApiError | null {
  const status = exception.getStatus();
  if (status === 404) return unknownRoute(req);
  if (status === 400 && isUrlDecodeError(exception)) {
    return new ApiError('BAD_REQUEST', 'Malformed URL encoding in the request path.');
  }
  if (status === 400) {
    return new ApiError('BAD_REQUEST', 'Malformed request: the body is not valid JSON.');
  }
  if (status === 413) return new ApiError('PAYLOAD_TOO_LARGE', 'Request body is too large.');
  if (codeOfStatus(status) !== 'SERVER_ERROR') {
    return new ApiError(codeOfStatus(status), exception.message);
  }
  return null;
}

/**
 * The router found no route for the method and path. When the path has other methods, the
 * answer says which (and sends `Allow`): under /api/v1 still the spec's 404 NOT_FOUND (an
 * unknown endpoint is a method and a path), elsewhere 405 METHOD_NOT_ALLOWED.
 */
function unknownRoute(req: ApiRequest): ApiError {
  const path = req.path ?? req.url;
  const shown = `${req.method} ${redactUrl(path)}`;
  const allowed = allowedMethods(req.app, path);
  if (allowed.length === 0) return new ApiError('NOT_FOUND', `Unknown endpoint: ${shown}`);
  const message = `Unknown endpoint: ${shown}. This path answers ${allowed.join(', ')}.`;
  const headers = { Allow: allowed.join(', ') };
  return isPublicApiPath(path)
    ? new ApiError('NOT_FOUND', message, { headers })
    : new ApiError('METHOD_NOT_ALLOWED', message, { headers });
}

/** The public API's paths (case-insensitive, like the router). */
function isPublicApiPath(path: string): boolean {
  return /^\/api\/v1(\/|$)/i.test(path);
}

/** The body parser's errors by their `type`; null for any other. */
function fromBodyParserType(bodyParserType: string | undefined): ApiError | null {
  if (bodyParserType === 'entity.parse.failed') {
    return new ApiError('BAD_REQUEST', 'Malformed request: the body is not valid JSON.');
  }
  if (bodyParserType === 'entity.too.large') {
    return new ApiError('PAYLOAD_TOO_LARGE', 'Request body is too large.');
  }
  if (bodyParserType === 'charset.unsupported') {
    return new ApiError(
      'UNSUPPORTED_MEDIA_TYPE',
      'Unsupported request body charset: send JSON as UTF-8.',
    );
  }
  if (typeof bodyParserType === 'string' && bodyParserType.startsWith('encoding.')) {
    return new ApiError('UNSUPPORTED_MEDIA_TYPE', 'Unsupported request body encoding.');
  }
  return null;
}

/**
 * Any other error that carries a client status meant to be shown (http-errors from the
 * body parser or the router: a body that does not match its Content-Encoding, a
 * malformed percent-encoding) keeps its status, with a fitting code and a safe message.
 */
function fromExposedClientStatus(exception: unknown): ApiError | null {
  const clientStatus = exposedClientStatus(exception);
  if (clientStatus === null) return null;
  if (isUrlDecodeError(exception)) {
    return new ApiError('BAD_REQUEST', 'Malformed URL encoding in the request path.');
  }
  // The router's only 400 is the decoding one above; any other is the body parser's
  // (e.g. a zlib error wrapped in "Bad Request").
  const message =
    clientStatus === 400
      ? 'Malformed request: the body could not be read (check Content-Encoding and Content-Length).'
      : `Malformed request: ${safeMessage((exception as Error).message)}`;
  return new ApiError(codeOfStatus(clientStatus), message);
}

/**
 * The `api_refusals_total` reason of an error, or null when it is not a refusal. The monthly
 * allowance and the per-minute limit share RATE_LIMITED; the monthly one carries meta.resets_at.
 */
export function refusalReason(error: ApiError): RefusalReason | null {
  if (error.code === 'RATE_LIMITED') {
    return error.meta && 'resets_at' in error.meta ? 'monthly_limit' : 'rate_limited';
  }
  return REFUSAL_OF_CODE[error.code] ?? null;
}

const REFUSAL_OF_CODE: Partial<Record<ApiError['code'], RefusalReason>> = {
  UNAUTHORIZED: 'unauthenticated',
  FORBIDDEN: 'forbidden',
  QUOTA_EXCEEDED: 'quota_exceeded',
  PAYMENT_REQUIRED: 'payment_required',
};

/** A 4xx status an error object carries and marks as safe to show (http-errors' `expose`). */
function exposedClientStatus(exception: unknown): number | null {
  if (typeof exception !== 'object' || exception === null) return null;
  const e = exception as { status?: unknown; statusCode?: unknown; expose?: unknown };
  const status = typeof e.status === 'number' ? e.status : e.statusCode;
  if (typeof status !== 'number' || status < 400 || status > 499 || e.expose !== true) return null;
  return status;
}

/** The router's "Failed to decode param" (a malformed percent-encoding in the path). */
function isUrlDecodeError(exception: unknown): boolean {
  const e = exception as { message?: unknown; name?: unknown };
  return (
    e.name === 'URIError' ||
    (typeof e.message === 'string' && /failed to decode param/i.test(e.message))
  );
}

/** A message for the client: one line, bounded, no control characters. */
function safeMessage(message: unknown): string {
  const text = typeof message === 'string' && message.length > 0 ? message : 'invalid request';
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f]+/g, ' ').slice(0, 200);
}
