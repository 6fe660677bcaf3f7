import type { ErrorCode } from '@app/core';

/**
 * The errors the public OpenAPI document describes, one example each, by name. An endpoint
 * declaration (`@Endpoint`, ./endpoint.ts) lists the names of the errors of its own; the
 * document (apps/api/src/ops/openapi.ts) adds those every key-authenticated route can answer.
 */
export interface ErrorExample {
  code: ErrorCode;
  summary: string;
  message: string;
  meta?: Record<string, unknown>;
  details?: Array<{ field: string; message: string }>;
}

/** One documented error each: its spec code and a real message (and meta members). */
export const ERROR_EXAMPLES = {
  malformed: {
    code: 'BAD_REQUEST',
    summary: 'Malformed request syntax',
    message: 'Malformed request: the body is not valid JSON.',
  },
  unauthorized: {
    code: 'UNAUTHORIZED',
    summary: 'Missing or invalid API key',
    message: 'Invalid or revoked API key.',
  },
  noCredit: {
    code: 'PAYMENT_REQUIRED',
    summary: 'Feature quota used up and no credits remain',
    message:
      'The monthly backlinks quota is used up and no credits remain. Add credits to continue.',
    meta: { credits_required: 1 },
  },
  trackedKeywordsLimit: {
    code: 'PAYMENT_REQUIRED',
    summary: 'The batch would pass the tracked_keywords limit; nothing was added',
    message:
      'This batch adds 3 new keywords, but the account tracks 499 of its 500 tracked keywords. Nothing was added: upgrade the plan, ask for a higher limit, or remove keywords.',
    meta: { limit: 500, used: 499, requested: 3 },
  },
  aiVisibilityLimit: {
    code: 'PAYMENT_REQUIRED',
    summary:
      'The write would pass ai_visibility_projects or ai_visibility_prompts_per_project; nothing was changed',
    message:
      'The account has 1 of its 1 AI-visibility projects. Nothing was created: upgrade the plan, ask for a higher limit, or delete a project.',
    meta: { limit: 1, used: 1, requested: 1 },
  },
  noApiAccess: {
    code: 'FORBIDDEN',
    summary: 'The plan lacks API access',
    message: 'The free plan has no API access. Upgrade to Pro or Agency to use the API.',
  },
  notFound: {
    code: 'NOT_FOUND',
    summary: 'Unknown, or not owned by the account',
    message: 'Project not found.',
  },
  alreadyRunning: {
    code: 'ALREADY_RUNNING',
    summary: 'The same request is already being fetched; nothing charged',
    message:
      'The same request is already being fetched for this account. Retry shortly; it will be served from cache. Nothing was charged.',
  },
  idempotencyRunning: {
    code: 'ALREADY_RUNNING',
    summary: 'A request with this Idempotency-Key is still running; nothing started twice',
    message:
      'A request with this Idempotency-Key is still running. Retry shortly to get its answer; nothing is started twice.',
  },
  idempotencyReused: {
    code: 'VALIDATION_ERROR',
    summary: 'The Idempotency-Key was used with another route or body, or is malformed',
    message:
      'This Idempotency-Key was used with another request body in the last 24 hours. Use a new key for a new request.',
    details: [
      {
        field: 'Idempotency-Key',
        message:
          'This Idempotency-Key was used with another request body in the last 24 hours. Use a new key for a new request.',
      },
    ],
  },
  wrongContentType: {
    code: 'UNSUPPORTED_MEDIA_TYPE',
    summary: 'The body is not JSON',
    message:
      'Content-Type "application/x-www-form-urlencoded" is not accepted. Send the body as JSON with Content-Type: application/json.',
  },
  validation: {
    code: 'VALIDATION_ERROR',
    summary: 'A parameter is missing or invalid (one message per field)',
    message: 'limit must not be greater than 500',
    details: [{ field: 'limit', message: 'limit must not be greater than 500' }],
  },
  unsupportedLocation: {
    code: 'UNSUPPORTED_LOCATION',
    summary: 'location_code is not a supported market',
    message:
      'location_code 9999 is not a supported market. See GET /api/v1/keyword-research/locations.',
    details: [
      {
        field: 'location_code',
        message:
          'location_code 9999 is not a supported market. See GET /api/v1/keyword-research/locations.',
      },
    ],
  },
  perMinute: {
    code: 'RATE_LIMITED',
    summary: 'Per-minute limit of this endpoint (retry after meta.retry_after seconds)',
    message: 'Too many requests to this endpoint: at most 20 per minute. Retry in 12 s.',
    meta: { retry_after: 12, limit: 20 },
  },
  monthly: {
    code: 'RATE_LIMITED',
    summary: 'Monthly call allowance used up (until meta.resets_at)',
    message: 'Monthly API call limit of 20 reached. It resets on 2026-12-01.',
    meta: { resets_at: '2026-12-01', limit: 20 },
  },
  keywordQuota: {
    code: 'QUOTA_EXCEEDED',
    summary: 'Monthly keyword-research quota used up',
    message:
      'The monthly keyword-research quota of 100 lookups is used up. It resets on 2026-12-01. Cached lookups stay free.',
    meta: { resets_at: '2026-12-01', limit: 100 },
  },
  auditQuota: {
    code: 'QUOTA_EXCEEDED',
    summary: 'Monthly crawl count or rolling page budget used up (meta.quota says which)',
    message: 'Monthly site-audit crawl limit of 10 reached. It resets on 2026-12-01.',
    meta: { quota: 'site_audit_crawls_per_month', limit: 10, resets_at: '2026-12-01' },
  },
  serverError: {
    code: 'SERVER_ERROR',
    summary: 'Internal error; safe to retry',
    message: 'Internal error. It is safe to retry.',
  },
  upstream: {
    code: 'UPSTREAM_ERROR',
    summary: 'The data provider returned no data; nothing charged',
    message:
      'The data provider returned no data for this request. Nothing was charged; please try again later.',
  },
} satisfies Record<string, ErrorExample>;

/** The name of a documented error (a key of ERROR_EXAMPLES). */
export type ErrorName = keyof typeof ERROR_EXAMPLES;
