import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ApiFailure, ApiResult, ApiSuccess } from './backend';

/** What an assistant can do about each error code (appended to the error text). */
const HINTS: Record<string, string> = {
  UNAUTHORIZED:
    'The API key is missing, revoked or wrong: fix SEO_API_KEY in the MCP client configuration.',
  FORBIDDEN: 'The account plan has no API access (Pro or Agency is required).',
  NOT_FOUND:
    'The id does not exist or belongs to another account: list the resources first to get a valid id.',
  VALIDATION_ERROR: 'Fix the arguments listed in details and call again.',
  UNSUPPORTED_LOCATION: 'Call list_locations for the accepted location codes.',
  RATE_LIMITED:
    'If meta.retry_after is present, wait that many seconds before calling this tool again; if meta.resets_at is present, the monthly call allowance is used up until that date (your-data tools still work).',
  QUOTA_EXCEEDED:
    'The monthly feature quota of this tool is used up (see meta); it resets with the plan period.',
  PAYMENT_REQUIRED: 'Backlinks need a credit: the feature quota is used up and no credits remain.',
  ALREADY_RUNNING:
    'The same request is already being fetched: retry shortly and it is served from cache at no cost.',
  UPSTREAM_ERROR: 'The outside data provider returned no data; nothing was charged. Retry later.',
  SERVER_ERROR: 'Internal error of the API; it is safe to retry.',
  NETWORK_ERROR: 'The API could not be reached; nothing was counted.',
  TIMEOUT: 'No answer in time; the call may have been counted.',
};

interface SuccessPayload {
  data: unknown;
  meta: Record<string, unknown>;
  [key: string]: unknown;
}

interface ErrorPayload {
  error: {
    code: string;
    message: string;
    http_status: number | null;
    details?: unknown;
    meta: Record<string, unknown>;
  };
  [key: string]: unknown;
}

/** Success: `{data, meta}` of the API answer, as structuredContent and as JSON text. */
export function successResult(
  result: ApiSuccess,
  note?: string,
  extra: Record<string, unknown> = {},
): CallToolResult {
  const payload: SuccessPayload = { data: result.data, meta: result.meta, ...extra };
  if (note) payload.note = note;
  const content: CallToolResult['content'] = [];
  if (note) content.push({ type: 'text', text: note });
  content.push({ type: 'text', text: JSON.stringify(payload) });
  return { content, structuredContent: payload };
}

function errorPayload(failure: ApiFailure): ErrorPayload {
  return {
    error: {
      code: failure.code,
      message: failure.message,
      http_status: failure.status,
      ...(failure.details !== undefined ? { details: failure.details } : {}),
      meta: failure.meta,
    },
  };
}

/** One line an assistant can act on: code, status, message, the meta that matters, a hint. */
function describeFailure(failure: ApiFailure): string {
  const status =
    failure.status !== null
      ? `HTTP ${failure.status}`
      : failure.code === 'VALIDATION_ERROR'
        ? 'refused before any API call'
        : 'no HTTP answer';
  const facts = ['retry_after', 'limit', 'resets_at']
    .filter((name) => failure.meta[name] !== undefined && failure.meta[name] !== null)
    .map((name) => `${name}=${String(failure.meta[name])}`);
  const hint = HINTS[failure.code];
  return (
    `API error ${failure.code} (${status}): ${failure.message}` +
    (facts.length ? ` [${facts.join(', ')}]` : '') +
    (hint ? ` ${hint}` : '')
  );
}

/** Error: isError with code, message, details and meta in both text and structuredContent. */
export function errorResult(
  failure: ApiFailure,
  extra: Record<string, unknown> = {},
): CallToolResult {
  const payload = { ...errorPayload(failure), ...extra };
  return {
    isError: true,
    content: [
      { type: 'text', text: describeFailure(failure) },
      { type: 'text', text: JSON.stringify(payload) },
    ],
    structuredContent: payload,
  };
}

export function toToolResult(result: ApiResult): CallToolResult {
  return result.ok ? successResult(result) : errorResult(result);
}
