import {
  ArgumentsHost,
  Catch,
  ExceptionFilter,
  HttpException,
  Injectable,
  Logger,
} from '@nestjs/common';
import type { Response } from 'express';
import { ApiError, Clock, codeOfStatus } from '@app/core';
import { errorEnvelope } from './envelope';
import { ApiRequest } from './request-context';
import { redactUrl } from '@app/logging';

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
    const body = errorEnvelope(error, req.id, this.clock.now());
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
      if (codeOfStatus(status) !== 'SERVER_ERROR') {
        return new ApiError(codeOfStatus(status), exception.message);
      }
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
