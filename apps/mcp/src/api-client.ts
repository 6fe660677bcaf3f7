import { McpConfig } from './config';

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
 * TIMEOUT (no answer in time), INVALID_RESPONSE (not the API's JSON envelope).
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
  /** Cancels the HTTP call (e.g. when the MCP client cancels the tool call). */
  signal?: AbortSignal;
}

export type FetchLike = typeof fetch;

const USER_AGENT = 'seo-api-mcp/0.1.0';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Thin HTTP client of the public REST API (/api/v1); it never throws for API or network errors. */
export class ApiClient {
  constructor(
    private readonly config: Pick<McpConfig, 'apiKey' | 'baseUrl' | 'requestTimeoutMs'>,
    private readonly fetchImpl: FetchLike = fetch,
  ) {}

  get(path: string, query?: Record<string, QueryValue>, signal?: AbortSignal): Promise<ApiResult> {
    return this.request('GET', path, { query, signal });
  }

  post(path: string, body: unknown, signal?: AbortSignal): Promise<ApiResult> {
    return this.request('POST', path, { body, signal });
  }

  /** `path` is relative to /api/v1 and must start with a slash. */
  async request(
    method: 'GET' | 'POST',
    path: string,
    options: RequestOptions = {},
  ): Promise<ApiResult> {
    const url = new URL(`${this.config.baseUrl}/api/v1${path}`);
    for (const [name, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const timeout = AbortSignal.timeout(this.config.requestTimeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    const headers: Record<string, string> = {
      Authorization: `Bearer ${this.config.apiKey}`,
      Accept: 'application/json',
      'User-Agent': USER_AGENT,
    };
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';

    let response: Response;
    let text: string;
    try {
      response = await this.fetchImpl(url, {
        method,
        headers,
        body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
        signal,
        redirect: 'error',
      });
      text = await response.text();
    } catch (error) {
      return this.transportFailure(error, timeout, options.signal);
    }
    return this.parse(response.status, text);
  }

  private parse(status: number, text: string): ApiResult {
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
        message: `The API at ${this.config.baseUrl} answered HTTP ${status} without its JSON envelope. Check SEO_API_BASE_URL.`,
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

  private transportFailure(
    error: unknown,
    timeout: AbortSignal,
    callerSignal?: AbortSignal,
  ): ApiFailure {
    if (callerSignal?.aborted) {
      return {
        ok: false,
        status: null,
        code: 'CANCELLED',
        message: 'The call was cancelled by the client.',
        meta: {},
      };
    }
    if (timeout.aborted) {
      return {
        ok: false,
        status: null,
        code: 'TIMEOUT',
        message: `The API at ${this.config.baseUrl} did not answer within ${this.config.requestTimeoutMs} ms. The call may still have been counted; retry later.`,
        meta: {},
      };
    }
    const reason = describeCause(error);
    return {
      ok: false,
      status: null,
      code: 'NETWORK_ERROR',
      message: `Could not reach the API at ${this.config.baseUrl} (${reason}). Check that it is running and that SEO_API_BASE_URL is right.`,
      meta: {},
    };
  }
}

/** Code for an HTTP answer that did not carry one (e.g. a proxy's HTML error page). */
function statusCode(status: number): string {
  if (status === 401) return 'UNAUTHORIZED';
  if (status === 403) return 'FORBIDDEN';
  if (status === 404) return 'NOT_FOUND';
  if (status === 429) return 'RATE_LIMITED';
  if (status >= 500) return 'SERVER_ERROR';
  return 'INVALID_RESPONSE';
}

/** The most telling reason of a fetch failure: ECONNREFUSED, ENOTFOUND, 'bad port', ... */
function describeCause(error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined;
  if (isRecord(cause)) {
    if (typeof cause.code === 'string') return cause.code;
    const first = Array.isArray(cause.errors) ? (cause.errors[0] as unknown) : undefined;
    if (isRecord(first) && typeof first.code === 'string') return first.code;
    if (typeof cause.message === 'string' && cause.message) return cause.message;
  }
  return error instanceof Error ? error.message : String(error);
}
