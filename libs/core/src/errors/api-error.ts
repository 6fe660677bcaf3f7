import { ErrorCode, statusOf } from './error-codes';

export interface FieldError {
  field: string;
  message: string;
}

interface ApiErrorOptions {
  /** Per-field problems (validation) or other machine-readable detail. */
  details?: FieldError[] | Record<string, unknown>;
  /** Members added to the response's meta, e.g. retry_after, resets_at. */
  meta?: Record<string, unknown>;
  /** Response headers to send with the error (e.g. Retry-After). */
  headers?: Record<string, string | number>;
  cause?: unknown;
}

/** The one error class services throw. The exception filter turns it into the error envelope. */
export class ApiError extends Error {
  readonly status: number;
  readonly details?: ApiErrorOptions['details'];
  readonly meta?: Record<string, unknown>;
  readonly headers?: Record<string, string | number>;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: ApiErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ApiError';
    this.status = statusOf(code);
    this.details = options.details;
    this.meta = options.meta;
    this.headers = options.headers;
  }

  static notFound(what = 'Resource'): ApiError {
    return new ApiError('NOT_FOUND', `${what} not found.`);
  }

  static validation(field: string, message: string): ApiError {
    return new ApiError('VALIDATION_ERROR', message, { details: [{ field, message }] });
  }
}
