import { SeoApiClient, SeoApiError } from '@seo-api/client';
import {
  ApiFailure,
  ApiMethod,
  ApiResult,
  ApiSuccess,
  QueryValue,
  RequestOptions,
  ToolBackend,
} from '@app/mcp-tools';
import { McpConfig } from './config';

export type { ApiFailure, ApiResult, ApiSuccess, QueryValue, RequestOptions };

export type FetchLike = (request: Request) => Promise<Response>;

const USER_AGENT = 'seo-api-mcp/0.1.0';

/** What to check when no answer of the API came back. */
const HINTS: Partial<Record<string, string>> = {
  NETWORK_ERROR: 'Check that it is running and that SEO_API_BASE_URL is right.',
  INVALID_RESPONSE: 'Check SEO_API_BASE_URL.',
  TIMEOUT: 'Retry later.',
};

/**
 * The tools' backend over HTTP: the typed client (@seo-api/client) with retries off, since an
 * assistant is told about a rate limit rather than kept waiting. It never throws for API or
 * network errors: they become ApiFailure, as the tools expect.
 */
export class ApiClient implements ToolBackend {
  private readonly client: SeoApiClient;

  constructor(
    config: Pick<McpConfig, 'apiKey' | 'baseUrl' | 'requestTimeoutMs'>,
    fetchImpl: FetchLike = (request) => fetch(request),
  ) {
    this.client = new SeoApiClient({
      apiKey: config.apiKey,
      baseUrl: config.baseUrl,
      timeoutMs: config.requestTimeoutMs,
      retry: false,
      fetch: fetchImpl,
      headers: { 'User-Agent': USER_AGENT },
    });
  }

  get(path: string, query?: Record<string, QueryValue>, signal?: AbortSignal): Promise<ApiResult> {
    return this.request('GET', path, { query, signal });
  }

  post(path: string, body: unknown, signal?: AbortSignal): Promise<ApiResult> {
    return this.request('POST', path, { body, signal });
  }

  /** `path` is relative to /api/v1 and must start with a slash. */
  async request(method: ApiMethod, path: string, options: RequestOptions = {}): Promise<ApiResult> {
    try {
      const { status, data, meta } = await this.client.request(method, path, options);
      return { ok: true, status, data, meta };
    } catch (error) {
      if (!(error instanceof SeoApiError)) throw error;
      return failure(error);
    }
  }
}

function failure(error: SeoApiError): ApiFailure {
  const hint = error.status === null || error.code === 'INVALID_RESPONSE' ? HINTS[error.code] : '';
  return {
    ok: false,
    status: error.status,
    code: error.code,
    message: hint ? `${error.message} ${hint}` : error.message,
    ...(error.details !== undefined ? { details: error.details } : {}),
    meta: error.meta,
  };
}
