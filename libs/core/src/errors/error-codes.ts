/**
 * Every public error code and its HTTP status. Codes are public API: add new ones, never
 * repurpose an existing one.
 */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  PAYMENT_REQUIRED: 402,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  ALREADY_RUNNING: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  VALIDATION_ERROR: 422,
  UNSUPPORTED_LOCATION: 422,
  RATE_LIMITED: 429,
  QUOTA_EXCEEDED: 429,
  SERVER_ERROR: 500,
  UPSTREAM_ERROR: 502,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export function statusOf(code: ErrorCode): number {
  return ERROR_STATUS[code];
}

/** The code of an error that carries only an HTTP status (Nest's, the body parser's). */
const CODE_OF_STATUS: Partial<Record<number, ErrorCode>> = {
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

/** The code for an HTTP status: its own, else BAD_REQUEST below 500 and SERVER_ERROR above. */
export function codeOfStatus(status: number): ErrorCode {
  return CODE_OF_STATUS[status] ?? (status < 500 ? 'BAD_REQUEST' : 'SERVER_ERROR');
}
