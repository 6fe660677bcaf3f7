import type { AuthContext } from '@app/accounts';
import {
  ApiMethod,
  ApiResult,
  RequestOptions,
  ToolBackend,
  queryString,
  readEnvelope,
} from '@app/mcp-tools';
import { CLIENT_CLOSED_REQUEST, RequestHandler, dispatchInternal } from './in-process-dispatch';

const CANCELLED: ApiResult = {
  ok: false,
  status: null,
  code: 'CANCELLED',
  message: 'The call was cancelled by the client.',
  meta: {},
};

/**
 * The hosted endpoint's tool backend: every tool call runs its REST route in process, as the
 * given caller, through the same pipeline and services as an HTTP call of that route, and its
 * answer is read by the same envelope mapping as the local package's HTTP client.
 */
export class InProcessBackend implements ToolBackend {
  constructor(
    private readonly handler: RequestHandler,
    private readonly caller: AuthContext,
    private readonly requestId?: string,
  ) {}

  async request(method: ApiMethod, path: string, options: RequestOptions = {}): Promise<ApiResult> {
    if (options.signal?.aborted) return CANCELLED;
    const answer = await dispatchInternal(this.handler, {
      method,
      url: `/api/v1${path}${queryString(options.query)}`,
      body: options.body,
      caller: this.caller,
      headers: {
        'user-agent': 'seo-api-mcp-hosted',
        ...(this.requestId ? { 'x-request-id': this.requestId } : {}),
        ...(options.idempotencyKey ? { 'idempotency-key': options.idempotencyKey } : {}),
      },
      signal: options.signal,
    });
    if (answer.status === CLIENT_CLOSED_REQUEST) return CANCELLED;
    return readEnvelope(answer.status, answer.text, 'in-process /api/v1');
  }
}
