import {
  ApiFailure,
  ApiResult,
  ApiSuccess,
  QueryValue,
  RequestOptions,
  ToolBackend,
  isRecord,
  readEnvelope,
} from '@app/mcp-tools';
import { McpConfig } from './config';

export type { ApiFailure, ApiResult, ApiSuccess, QueryValue, RequestOptions };

export type FetchLike = typeof fetch;

const USER_AGENT = 'seo-api-mcp/0.1.0';

/** Thin HTTP client of the public REST API (/api/v1); it never throws for API or network errors. */
export class ApiClient implements ToolBackend {
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
    return readEnvelope(status, text, this.config.baseUrl);
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
