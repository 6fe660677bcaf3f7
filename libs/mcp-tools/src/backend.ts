import { randomUUID } from 'node:crypto';

/**
 * What a tool needs from the API: one REST call by method and path. The local stdio package
 * implements it over HTTP (apps/mcp ApiClient); the hosted /mcp endpoint implements it in
 * process (apps/api/src/mcp). Both answer with the same ApiResult, read from the same envelope
 * by `readEnvelope`, so the tools map results and errors one way.
 */

/** A 2xx answer of the REST API: data (or the top-level members of a 202) and meta. */
export interface ApiSuccess {
  ok: true;
  status: number;
  data: unknown;
  meta: Record<string, unknown>;
}

/**
 * A refused or failed call. `code` is the API's error code (UNAUTHORIZED, RATE_LIMITED,
 * QUOTA_EXCEEDED, ...) or one of the connector's own: NETWORK_ERROR (API unreachable),
 * TIMEOUT (no answer in time), INVALID_RESPONSE (not the API's JSON envelope), CANCELLED.
 */
export interface ApiFailure {
  ok: false;
  /** HTTP status, or null when no HTTP answer arrived. */
  status: number | null;
  code: string;
  message: string;
  details?: unknown;
  meta: Record<string, unknown>;
}

export type ApiResult = ApiSuccess | ApiFailure;

export type QueryValue = string | number | boolean | undefined;

export interface RequestOptions {
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** Cancels the call (e.g. when the MCP client cancels the tool call). */
  signal?: AbortSignal;
  /** The POST's Idempotency-Key (apiPost gives each call its own; docs/api.md). */
  idempotencyKey?: string;
}

/** The HTTP methods the tools call. */
export type ApiMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** One REST call of /api/v1; never throws for API or transport errors. */
export interface ToolBackend {
  /** `path` is relative to /api/v1 and starts with a slash. */
  request(method: ApiMethod, path: string, options?: RequestOptions): Promise<ApiResult>;
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** GET with a query (undefined members left out). */
export const apiGet = (
  api: ToolBackend,
  path: string,
  query?: Record<string, QueryValue>,
  signal?: AbortSignal,
) => api.request('GET', path, { query, signal });

/**
 * POST with a JSON body and an Idempotency-Key of its own (a new random one per tool call), so
 * a retry of the call by the backend never starts or charges twice.
 */
export const apiPost = (api: ToolBackend, path: string, body: unknown, signal?: AbortSignal) =>
  api.request('POST', path, { body, signal, idempotencyKey: randomUUID() });

/** PATCH with a JSON body (a PATCH sets values, so repeating it changes nothing more). */
export const apiPatch = (api: ToolBackend, path: string, body: unknown, signal?: AbortSignal) =>
  api.request('PATCH', path, { body, signal });

/** DELETE without a body. */
export const apiDelete = (api: ToolBackend, path: string, signal?: AbortSignal) =>
  api.request('DELETE', path, { signal });

/** `?a=1&b=x` of the defined members (empty string when none). */
export function queryString(query: Record<string, QueryValue> | undefined): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined) params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/**
 * The API's answer (status and body text) as an ApiResult: the success envelope's data
 * (or the top-level members of a 202 job acceptance) and meta, or the error envelope's code,
 * message, details and meta. `where` names the API in messages (its base URL).
 */
export function readEnvelope(status: number, text: string, where: string): ApiResult {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (!isRecord(body) || typeof body.success !== 'boolean') {
    return {
      ok: false,
      status,
      code: status >= 200 && status < 300 ? 'INVALID_RESPONSE' : statusCode(status),
      message: `The API at ${where} answered HTTP ${status} without its JSON envelope. Check SEO_API_BASE_URL.`,
      meta: {},
    };
  }
  const meta = isRecord(body.meta) ? body.meta : {};
  if (body.success && status >= 200 && status < 300) {
    // 202 job acceptance carries job_id/status/poll at top level instead of data.
    const { success: _s, meta: _m, ...rest } = body;
    return { ok: true, status, data: 'data' in body ? body.data : rest, meta };
  }
  const error = isRecord(body.error) ? body.error : {};
  return {
    ok: false,
    status,
    code: typeof error.code === 'string' ? error.code : statusCode(status),
    message: typeof error.message === 'string' ? error.message : `HTTP ${status}`,
    ...(error.details !== undefined ? { details: error.details } : {}),
    meta,
  };
}

/** Code for an HTTP answer that did not carry one (e.g. a proxy's HTML error page). */
export function statusCode(status: number): string {
  if (status === 401) return 'UNAUTHORIZED';
  if (status === 403) return 'FORBIDDEN';
  if (status === 404) return 'NOT_FOUND';
  if (status === 429) return 'RATE_LIMITED';
  if (status >= 500) return 'SERVER_ERROR';
  return 'INVALID_RESPONSE';
}
