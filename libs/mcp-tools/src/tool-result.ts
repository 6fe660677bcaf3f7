import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ApiFailure, ApiResult, ApiSuccess, isRecord } from './backend';

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

export interface SuccessPayload {
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

/**
 * Success: `{data, meta}` of the API answer as structuredContent, which every tool declares
 * with an outputSchema; the text content is a short summary of it (counts, scalar members, the
 * first rows), not a second full copy: a 500-keyword answer would otherwise be sent twice
 * (docs/mcp.md, "Results").
 */
export function successResult(
  result: ApiSuccess,
  note?: string,
  extra: Record<string, unknown> = {},
): CallToolResult {
  const payload: SuccessPayload = { data: result.data, meta: result.meta, ...extra };
  if (note) payload.note = note;
  const content: CallToolResult['content'] = [];
  if (note) content.push({ type: 'text', text: note });
  content.push({ type: 'text', text: summaryText(payload) });
  return { content, structuredContent: payload };
}

/** Longest text of one row, one object member or meta in the summary. */
const ITEM_CHARS = 400;
/** Rows of one list shown in the summary: while their text fits this budget (at least one), at most LIST_ROWS. */
const LIST_CHARS = 1500;
const LIST_ROWS = 10;
/** Bound of the whole summary. */
export const SUMMARY_MAX_CHARS = 6000;

const clip = (text: string, max: number) =>
  text.length <= max ? text : `${text.slice(0, max - 1)}…`;

const compact = (value: unknown) => clip(JSON.stringify(value) ?? 'null', ITEM_CHARS);

/** `name: N rows` and the first rows that fit, as compact JSON. */
function listLines(name: string, rows: unknown[]): string[] {
  const shown: string[] = [];
  let used = 0;
  for (const row of rows) {
    const text = compact(row);
    if (shown.length >= LIST_ROWS || (shown.length > 0 && used + text.length > LIST_CHARS)) break;
    shown.push(`  ${text}`);
    used += text.length;
  }
  const head =
    rows.length === 0
      ? `${name}: 0 rows`
      : shown.length === rows.length
        ? `${name}: ${rows.length} row${rows.length === 1 ? '' : 's'}:`
        : `${name}: ${rows.length} rows, the first ${shown.length}:`;
  return [head, ...shown];
}

/**
 * The text of a success: every scalar member of data, each list as its row count and first
 * rows, each object member clipped, then meta; bounded by SUMMARY_MAX_CHARS. It names
 * structuredContent as the place of the complete answer.
 */
export function summaryText(payload: SuccessPayload): string {
  const lines = [
    'Summary; the complete answer (data and meta, as the REST API sends them) is in structuredContent.',
  ];
  const { data, meta, note: _note, ...extra } = payload;
  // What the API did not use as sent (meta.warnings): first, so the assistant sees it.
  if (Array.isArray(meta.warnings) && meta.warnings.length > 0)
    lines.push(
      `Warnings: ${clip(meta.warnings.map((w: { message?: unknown }) => String(w.message)).join(' '), ITEM_CHARS)}`,
    );
  for (const [name, value] of Object.entries(extra)) lines.push(`${name}: ${compact(value)}`);
  if (Array.isArray(data)) lines.push(...listLines('data', data));
  else if (isRecord(data)) {
    for (const [name, value] of Object.entries(data)) {
      if (Array.isArray(value)) lines.push(...listLines(`data.${name}`, value));
      else lines.push(`data.${name}: ${compact(value)}`);
    }
  } else lines.push(`data: ${compact(data)}`);
  lines.push(`meta: ${compact(meta)}`);
  return clip(lines.join('\n'), SUMMARY_MAX_CHARS);
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

/** RATE_LIMITED of the monthly call allowance (meta.resets_at), not of the per-minute limit (meta.retry_after). */
const monthlyCap = (failure: ApiFailure) =>
  failure.code === 'RATE_LIMITED' && typeof failure.meta.resets_at === 'string';

/** FORBIDDEN of a write tool called over OAuth without the write scope (tool-context's writeHandler). */
const missingScope = (failure: ApiFailure) =>
  failure.code === 'FORBIDDEN' && typeof failure.meta.required_scope === 'string';

/**
 * A plan limit of records (tracked_keywords, ai_visibility_projects,
 * ai_visibility_prompts_per_project): the 402 carries meta.requested (docs/your-data.md).
 */
const recordLimit = (failure: ApiFailure) =>
  failure.code === 'PAYMENT_REQUIRED' && failure.meta.requested !== undefined;

/** What to do about a failure: by its code, or by what its meta says it is. */
function hintFor(failure: ApiFailure): string | undefined {
  if (monthlyCap(failure)) {
    return (
      `The monthly call allowance of ${String(failure.meta.limit ?? '')} calls is used up until ${String(failure.meta.resets_at)} ` +
      '(UTC): every tool is refused until then, get_usage included, except the your-data tools (list_rank_keywords, ' +
      'get_rank_history, list_gsc_properties, query_gsc, list_ai_visibility_projects, get_share_of_voice and the rank-tracking ' +
      'management tools such as list_rank_projects and add_rank_keywords), which still work.'
    );
  }
  if (missingScope(failure)) {
    return (
      `Ask the person to reconnect this app and approve ${String(failure.meta.required_scope)} ` +
      '(or use the local package with an API key); until then only the reading tools work.'
    );
  }
  if (recordLimit(failure)) {
    return (
      'Nothing was added or changed: the write would pass the plan limit (meta.limit, of which meta.used are in ' +
      'use, meta.requested asked). Send fewer items, delete some, or ask for a larger plan or an override.'
    );
  }
  return HINTS[failure.code];
}

/** One line an assistant can act on: code, status, message, the meta that matters, a hint. */
function describeFailure(failure: ApiFailure): string {
  const status =
    failure.status !== null
      ? `HTTP ${failure.status}`
      : failure.code === 'VALIDATION_ERROR' || missingScope(failure)
        ? 'refused before any API call'
        : 'no HTTP answer';
  const facts = ['retry_after', 'limit', 'used', 'requested', 'resets_at']
    .filter((name) => failure.meta[name] !== undefined && failure.meta[name] !== null)
    .map((name) => `${name}=${String(failure.meta[name])}`);
  const hint = hintFor(failure);
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
