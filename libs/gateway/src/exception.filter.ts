import {
  ArgumentsHost,
  Catch,
  ExceptionFilter,
  HttpException,
  Injectable,
  Logger,
} from '@nestjs/common';
import type { Response } from 'express';
import { ApiError, Clock, ErrorCode, isoTimestamp } from '@app/core';
import { ApiRequest } from './request-context';
import { redactUrl } from './logging';

const STATUS_CODES: Record<number, ErrorCode> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'VALIDATION_ERROR',
  429: 'RATE_LIMITED',
  502: 'UPSTREAM_ERROR',
  503: 'SERVICE_UNAVAILABLE',
};

/**
 * Every error becomes the error envelope. ApiError carries its own code; Nest's and the
 * body parser's errors are translated; anything else is 500 SERVER_ERROR with nothing
 * internal in the answer (the log has the details).
 */
@Catch()
@Injectable()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('ExceptionFilter');

  constructor(private readonly clock: Clock) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const req = ctx.getRequest<ApiRequest>();
    const res = ctx.getResponse<Response>();
    const error = this.toApiError(exception, req);

    if (
      error.status >= 500 &&
      error.code !== 'UPSTREAM_ERROR' &&
      error.code !== 'SERVICE_UNAVAILABLE'
    ) {
      this.logger.error(
        { err: exception, request_id: req.id, url: redactUrl(req.originalUrl ?? req.url) },
        'Unhandled error',
      );
    }
    if (res.headersSent) return;
    for (const [name, value] of Object.entries(error.headers ?? {}))
      res.setHeader(name, String(value));
    const body: Record<string, unknown> = {
      success: false,
      error: {
        code: error.code,
        message: error.message,
        ...(error.details !== undefined ? { details: error.details } : {}),
      },
      meta: {
        timestamp: isoTimestamp(this.clock.now()),
        request_id: req.id,
        ...(error.meta ?? {}),
      },
    };
    res.status(error.status).json(body);
  }

  private toApiError(exception: unknown, req: ApiRequest): ApiError {
    if (exception instanceof ApiError) return exception;
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status === 404) {
        return new ApiError(
          'NOT_FOUND',
          `Unknown endpoint: ${req.method} ${redactUrl(req.path ?? req.url)}`,
        );
      }
      if (status === 400) {
        return new ApiError('BAD_REQUEST', 'Malformed request: the body is not valid JSON.');
      }
      if (status === 413) return new ApiError('PAYLOAD_TOO_LARGE', 'Request body is too large.');
      const code = STATUS_CODES[status];
      if (code) return new ApiError(code, exception.message);
      if (status < 500) return new ApiError('BAD_REQUEST', exception.message);
    }
    const bodyParserType = (exception as { type?: string } | null)?.type;
    if (bodyParserType === 'entity.parse.failed') {
      return new ApiError('BAD_REQUEST', 'Malformed request: the body is not valid JSON.');
    }
    if (bodyParserType === 'entity.too.large') {
      return new ApiError('PAYLOAD_TOO_LARGE', 'Request body is too large.');
    }
    if (typeof bodyParserType === 'string' && bodyParserType.startsWith('encoding.')) {
      return new ApiError('UNSUPPORTED_MEDIA_TYPE', 'Unsupported request body encoding.');
    }
    return new ApiError('SERVER_ERROR', 'Internal error. It is safe to retry.', {
      cause: exception,
    });
  }
}
