import createClient from 'openapi-fetch';
import type { Client } from 'openapi-fetch';
import type { components, operations, paths } from './schema.js';

export type { components, operations, paths } from './schema.js';

type Schemas = components['schemas'];
type QueryOf<Op extends keyof operations> = NonNullable<operations[Op]['parameters']['query']>;
type BodyOf<Op extends keyof operations> = operations[Op] extends {
  requestBody: { content: { 'application/json': infer B } };
}
  ? B
  : never;

/** The data and meta of a success answer (the envelope without `success`). */
export interface Answer<D, M> {
  data: D;
  meta: M;
}
type AnswerOf<E extends { data: unknown; meta: unknown }> = Answer<E['data'], E['meta']>;

export type UsageRecord = Schemas['UsageRecord'];
export type BacklinkProfile = Schemas['BacklinkProfile'];
export type Backlink = Schemas['Backlink'];
export type KeywordResearch = Schemas['KeywordResearch'];
export type KeywordMetrics = Schemas['KeywordMetrics'];
export type RelatedKeyword = Schemas['RelatedKeyword'];
export type Locations = Schemas['Locations'];
export type JobRecord = Schemas['JobRecord'];
export type SiteAuditResult = Schemas['SiteAuditResult'];
export type TrackedKeyword = Schemas['TrackedKeyword'];
export type RankKeywords = Schemas['RankKeywords'];
export type RankHistory = Schemas['RankHistory'];
export type RankProject = Schemas['RankProject'];
export type RankProjects = Schemas['RankProjects'];
export type RankKeywordsAdded = Schemas['RankKeywordsAdded'];
export type GscProperty = Schemas['GscProperty'];
export type GscProperties = Schemas['GscProperties'];
export type GscQueries = Schemas['GscQueries'];
export type AiVisibilityProject = Schemas['AiVisibilityProject'];
export type AiVisibilityProjects = Schemas['AiVisibilityProjects'];
export type ShareOfVoice = Schemas['ShareOfVoice'];
export type ErrorEnvelope = Schemas['ErrorEnvelope'];
/** Every error code the API answers (the spec's, plus the HTTP-level ones). */
export type ApiErrorCode = ErrorEnvelope['error']['code'];
/** Codes of the client's own, when no answer of the API arrived or it was not the API's. */
export type ClientErrorCode = 'NETWORK_ERROR' | 'TIMEOUT' | 'CANCELLED' | 'INVALID_RESPONSE';

export type BacklinksQuery = QueryOf<'getBacklinks'>;
export type KeywordResearchRequest = BodyOf<'researchKeyword'>;
export type SiteAuditRequest = BodyOf<'startSiteAudit'>;
export type RankKeywordsQuery = QueryOf<'listRankKeywords'>;
export type RankHistoryQuery = QueryOf<'getRankHistory'>;
export type CreateRankProjectRequest = BodyOf<'createRankProject'>;
export type UpdateRankProjectRequest = BodyOf<'updateRankProject'>;
export type AddRankKeywordsRequest = BodyOf<'addRankKeywords'>;
export type UpdateRankKeywordRequest = BodyOf<'updateRankKeyword'>;
export type CreateAiVisibilityProjectRequest = BodyOf<'createAiVisibilityProject'>;
export type UpdateAiVisibilityProjectRequest = BodyOf<'updateAiVisibilityProject'>;
export type GscQueriesQuery = QueryOf<'queryGsc'>;
export type ShareOfVoiceQuery = QueryOf<'getShareOfVoice'>;
export type JobsQuery = QueryOf<'listJobs'>;

/** The 202 of startSiteAudit: job_id, status and poll (the spec keeps them at the top level). */
export type SiteAuditAccepted = Omit<Schemas['SiteAuditAccepted'], 'success'>;

export interface RetryOptions {
  /** Retries after the first attempt (default 2). */
  maxRetries?: number;
  /** A server delay longer than this is not waited for: the error is thrown (default 60 000). */
  maxDelayMs?: number;
}

export interface SeoApiClientOptions {
  /** The API key (`seo_live_…`), sent as `Authorization: Bearer`. Keep it server-side. */
  apiKey: string;
  /** The service's origin, e.g. `https://api.example.com` (paths add /api/v1). */
  baseUrl: string;
  /**
   * Retries of 429 RATE_LIMITED per minute (after meta.retry_after) and of a 5xx answer that
   * carries Retry-After (after that delay). Never of a monthly cap, a quota or a credit refusal.
   * `false` turns retrying off.
   */
  retry?: RetryOptions | false;
  /** Per-attempt time limit in ms (default 90 000: above the 60 s of a job long-poll). */
  timeoutMs?: number;
  /** A fetch to use instead of the global one. */
  fetch?: (request: Request) => Promise<Response>;
  /** Extra headers on every request (e.g. User-Agent on a server). */
  headers?: Record<string, string>;
}

/** Per-call options. */
export interface CallOptions {
  /** Cancels the call (and any wait for a retry). */
  signal?: AbortSignal;
}

/** Options of a POST: its Idempotency-Key. */
export interface PostOptions extends CallOptions {
  /**
   * The call's `Idempotency-Key` (1-255 printable ASCII characters). By default each call
   * sends a new random one and keeps it across its own retries, so a retried POST never
   * starts or charges twice. Give your own to make a call safe to repeat after a crash of
   * your process (the API replays the first answer for 24 hours).
   */
  idempotencyKey?: string;
}

/** A random key for one logical POST (UUID v4; also where randomUUID is missing, e.g. over http). */
export function newIdempotencyKey(): string {
  const c = globalThis.crypto;
  if (typeof c.randomUUID === 'function') return c.randomUUID();
  const b = c.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const idempotencyHeader = (options?: PostOptions) => ({
  'Idempotency-Key': options?.idempotencyKey ?? newIdempotencyKey(),
});

/**
 * An error answer of the API (its `code`, HTTP `status`, `details` and `meta`), or a failure
 * to get one (`status` null; code NETWORK_ERROR, TIMEOUT or CANCELLED; INVALID_RESPONSE when
 * the answer was not the API's JSON).
 */
export class SeoApiError extends Error {
  readonly code: ApiErrorCode | ClientErrorCode;
  /** HTTP status, or null when no answer arrived. */
  readonly status: number | null;
  /** Validation problems: one entry per field. */
  readonly details?: Array<{ field: string; message: string }>;
  /** Seconds to wait before retrying (429 per minute: meta.retry_after; else Retry-After), or null. */
  readonly retryAfter: number | null;
  /** The error answer's meta (request_id, resets_at, limit, quota, ...). */
  readonly meta: Record<string, unknown>;

  constructor(init: {
    code: ApiErrorCode | ClientErrorCode;
    message: string;
    status: number | null;
    details?: Array<{ field: string; message: string }>;
    retryAfter?: number | null;
    meta?: Record<string, unknown>;
    cause?: unknown;
  }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'SeoApiError';
    this.code = init.code;
    this.status = init.status;
    this.details = init.details;
    this.retryAfter = init.retryAfter ?? null;
    this.meta = init.meta ?? {};
  }

  /** The request id of the answer, to quote to support. */
  get requestId(): string | undefined {
    return typeof this.meta.request_id === 'string' ? this.meta.request_id : undefined;
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The code of an answer without the API's envelope (e.g. a proxy's HTML page). */
function codeOfStatus(status: number): ApiErrorCode | ClientErrorCode {
  if (status === 401) return 'UNAUTHORIZED';
  if (status === 403) return 'FORBIDDEN';
  if (status === 404) return 'NOT_FOUND';
  if (status === 429) return 'RATE_LIMITED';
  if (status >= 500) return 'SERVER_ERROR';
  return 'INVALID_RESPONSE';
}

/** Retry-After as seconds (delta-seconds or an HTTP date), or null. */
function retryAfterHeader(response: Response, now = Date.now()): number | null {
  const value = response.headers.get('retry-after');
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/** The envelope of an answer's body text, or undefined when it is not the API's JSON. */
function envelopeOf(text: string): Record<string, unknown> | undefined {
  try {
    const body: unknown = JSON.parse(text);
    return isRecord(body) && typeof body.success === 'boolean' ? body : undefined;
  } catch {
    return undefined;
  }
}

function errorFromAnswer(
  status: number,
  body: Record<string, unknown> | undefined,
  response: Response,
  where: string,
): SeoApiError {
  if (!body) {
    return new SeoApiError({
      code: codeOfStatus(status),
      status,
      message: `The API at ${where} answered HTTP ${status} without its JSON envelope.`,
      retryAfter: retryAfterHeader(response),
    });
  }
  const error = isRecord(body.error) ? body.error : {};
  const meta = isRecord(body.meta) ? body.meta : {};
  return new SeoApiError({
    code: (typeof error.code === 'string' ? error.code : codeOfStatus(status)) as ApiErrorCode,
    status,
    message: typeof error.message === 'string' ? error.message : `HTTP ${status}`,
    details: Array.isArray(error.details)
      ? (error.details as Array<{ field: string; message: string }>)
      : undefined,
    retryAfter:
      typeof meta.retry_after === 'number' ? meta.retry_after : retryAfterHeader(response),
    meta,
  });
}

/** How long to wait before retrying this answer (ms), or null when it is not retried. */
async function retryDelay(response: Response): Promise<number | null> {
  if (response.status === 429) {
    const body = envelopeOf(await response.clone().text());
    const error = isRecord(body?.error) ? body.error : {};
    const meta = isRecord(body?.meta) ? body.meta : {};
    // Only the per-minute limit clears by waiting; the monthly cap and quotas do not.
    if (error.code === 'RATE_LIMITED' && typeof meta.retry_after === 'number')
      return meta.retry_after * 1000;
    return null;
  }
  if (response.status >= 500) {
    const seconds = retryAfterHeader(response);
    return seconds === null ? null : seconds * 1000;
  }
  return null;
}

function sleep(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', abort);
      resolve();
    }
    function abort() {
      clearTimeout(timer);
      reject(signal?.reason);
    }
    signal?.addEventListener('abort', abort, { once: true });
  });
}

/** The most telling reason of a fetch failure: ECONNREFUSED, ENOTFOUND, ... */
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

const TERMINAL = new Set(['complete', 'failed']);

/**
 * The typed client of the public API: one method per endpoint of /api/v1, each answering
 * `{data, meta}` typed from the OpenAPI document, or throwing SeoApiError. Runs wherever
 * `fetch` does (Node 20+, browsers, workers).
 */
export class SeoApiClient {
  private readonly http: Client<paths>;
  private readonly baseUrl: string;
  private readonly retry: Required<RetryOptions> | false;
  private readonly timeoutMs: number;
  private readonly fetchImpl: (request: Request) => Promise<Response>;
  private readonly headers: Record<string, string>;

  constructor(options: SeoApiClientOptions) {
    if (!options?.apiKey) throw new TypeError('SeoApiClient: apiKey is required');
    if (!options.baseUrl) throw new TypeError('SeoApiClient: baseUrl is required');
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.retry =
      options.retry === false
        ? false
        : { maxRetries: 2, maxDelayMs: 60_000, ...(options.retry ?? {}) };
    this.timeoutMs = options.timeoutMs ?? 90_000;
    this.fetchImpl = options.fetch ?? ((request) => globalThis.fetch(request));
    this.headers = {
      ...(options.headers ?? {}),
      Authorization: `Bearer ${options.apiKey}`,
      Accept: 'application/json',
    };
    this.http = createClient<paths>({
      baseUrl: this.baseUrl,
      headers: this.headers,
      fetch: (request) => this.send(request),
    });
  }

  /** GET /usage: calls used this month, the allowance and the reset date (counts as a call). */
  usage(options?: CallOptions): Promise<AnswerOf<Schemas['UsageAnswer']>> {
    return this.unwrap(this.http.GET('/api/v1/usage', { signal: options?.signal }));
  }

  /** GET /backlinks: the backlink profile of a domain (research: quota or a credit). */
  backlinks(
    query: BacklinksQuery,
    options?: CallOptions,
  ): Promise<AnswerOf<Schemas['BacklinksAnswer']>> {
    return this.unwrap(
      this.http.GET('/api/v1/backlinks', { params: { query }, signal: options?.signal }),
    );
  }

  /**
   * The pages of a domain's backlinks, from `query.page` (default 1) until the last one or
   * `maxPages`. Each page is one call, and a page after the first always costs 1 credit.
   */
  async *backlinkPages(
    query: BacklinksQuery,
    options: CallOptions & { maxPages?: number } = {},
  ): AsyncGenerator<AnswerOf<Schemas['BacklinksAnswer']>, void, undefined> {
    const limit = query.limit ?? 100;
    let page = query.page ?? 1;
    for (let n = 0; n < (options.maxPages ?? Infinity); n++, page++) {
      const answer = await this.backlinks({ ...query, page, limit }, options);
      yield answer;
      const total = answer.data.total_backlinks;
      const seen = (page - 1) * limit + answer.data.backlinks.length;
      if (answer.data.backlinks.length < limit || (total !== null && seen >= total)) return;
    }
  }

  /** POST /keyword-research: a keyword's metrics and related keywords (research: quota). */
  keywordResearch(
    body: KeywordResearchRequest,
    options?: PostOptions,
  ): Promise<AnswerOf<Schemas['KeywordResearchAnswer']>> {
    return this.unwrap(
      this.http.POST('/api/v1/keyword-research', {
        body,
        headers: idempotencyHeader(options),
        signal: options?.signal,
      }),
    );
  }

  /** GET /keyword-research/locations: the markets keyword research accepts. */
  locations(options?: CallOptions): Promise<AnswerOf<Schemas['LocationsAnswer']>> {
    return this.unwrap(
      this.http.GET('/api/v1/keyword-research/locations', { signal: options?.signal }),
    );
  }

  /** POST /site-audit: starts a crawl; answers job_id, status "queued" and poll. */
  async startSiteAudit(body: SiteAuditRequest, options?: PostOptions): Promise<SiteAuditAccepted> {
    const { success: _success, ...accepted } = await this.result(
      this.http.POST('/api/v1/site-audit', {
        body,
        headers: idempotencyHeader(options),
        signal: options?.signal,
      }),
    );
    return accepted;
  }

  /**
   * GET /jobs/{job_id}: the job record. With `wait` (1-60 s) the answer comes as soon as
   * the job is complete or failed, or after that many seconds; one call however long.
   */
  job(
    jobId: string,
    options: CallOptions & { wait?: number } = {},
  ): Promise<AnswerOf<Schemas['JobAnswer']>> {
    return this.unwrap(
      this.http.GET('/api/v1/jobs/{job_id}', {
        params: {
          path: { job_id: jobId },
          query: options.wait === undefined ? undefined : { wait: options.wait },
        },
        signal: options.signal,
      }),
    );
  }

  /**
   * GET /jobs (an extension of the spec): the account's jobs, newest first, optionally of one
   * status; `limit` 1-100 (default 20), `offset`; `meta.total` counts all that match.
   */
  jobs(query: JobsQuery = {}, options?: CallOptions): Promise<AnswerOf<Schemas['JobListAnswer']>> {
    return this.unwrap(
      this.http.GET('/api/v1/jobs', { params: { query }, signal: options?.signal }),
    );
  }

  /**
   * Waits for a job to be complete or failed with the long-poll (`wait=60`: one call a
   * minute at most) and answers its final record; a failed job is answered, not thrown.
   * Throws SeoApiError TIMEOUT after `timeoutMs` (default 15 minutes).
   */
  async waitForJob(
    jobId: string,
    options: CallOptions & { timeoutMs?: number; waitSeconds?: number; pauseMs?: number } = {},
  ): Promise<JobRecord> {
    const budget = options.timeoutMs ?? 15 * 60_000;
    const deadline = Date.now() + budget;
    // A long-poll must end well inside one request's time limit.
    const longest = Math.max(0, Math.floor(this.timeoutMs / 1000) - 5);
    for (;;) {
      const left = Math.ceil((deadline - Date.now()) / 1000);
      const wait = Math.max(0, Math.min(options.waitSeconds ?? 60, left, longest));
      const asked = Date.now();
      const { data } = await this.job(jobId, { wait, signal: options.signal });
      if (TERMINAL.has(data.status)) return data;
      if (Date.now() >= deadline) {
        throw new SeoApiError({
          code: 'TIMEOUT',
          status: null,
          message: `Job ${jobId} was still ${data.status} after ${budget} ms.`,
        });
      }
      // An answer well before `wait` (the server's waiting limits, or wait 0) is not
      // followed by another call at once: pause first (default 5 s, never past the deadline).
      if (Date.now() - asked < (wait * 1000) / 2) {
        const pause = Math.min(options.pauseMs ?? 5000, Math.max(0, deadline - Date.now()));
        await this.pause(pause, options.signal);
      }
    }
  }

  private async pause(ms: number, signal?: AbortSignal): Promise<void> {
    try {
      await sleep(ms, signal);
    } catch (error) {
      throw new SeoApiError({
        code: 'CANCELLED',
        status: null,
        message: 'The call was cancelled.',
        cause: error,
      });
    }
  }

  /** GET /rank/keywords: tracked keywords with their latest positions (your-data). */
  rankKeywords(
    query: RankKeywordsQuery = {},
    options?: CallOptions,
  ): Promise<AnswerOf<Schemas['RankKeywordsAnswer']>> {
    return this.unwrap(
      this.http.GET('/api/v1/rank/keywords', { params: { query }, signal: options?.signal }),
    );
  }

  /**
   * The pages of the tracked keywords, from `query.offset` (default 0) until the last one
   * (`meta.next` null) or `maxPages`. Each page is one your-data call (no quota, no credit).
   */
  async *rankKeywordPages(
    query: RankKeywordsQuery = {},
    options: CallOptions & { maxPages?: number } = {},
  ): AsyncGenerator<AnswerOf<Schemas['RankKeywordsAnswer']>, void, undefined> {
    let offset = query.offset ?? 0;
    for (let n = 0; n < (options.maxPages ?? Infinity); n++) {
      const answer = await this.rankKeywords({ ...query, offset }, options);
      yield answer;
      if (answer.meta.next === null || answer.data.count === 0) return;
      offset = answer.meta.offset + answer.meta.limit;
    }
  }

  /** GET /rank/history: one keyword's positions over the last `days` days (your-data). */
  rankHistory(
    query: RankHistoryQuery,
    options?: CallOptions,
  ): Promise<AnswerOf<Schemas['RankHistoryAnswer']>> {
    return this.unwrap(
      this.http.GET('/api/v1/rank/history', { params: { query }, signal: options?.signal }),
    );
  }

  /** GET /rank/projects: the account's rank-tracking projects (your-data, an extension). */
  rankProjects(options?: CallOptions): Promise<AnswerOf<Schemas['RankProjectsAnswer']>> {
    return this.unwrap(this.http.GET('/api/v1/rank/projects', { signal: options?.signal }));
  }

  /**
   * POST /rank/projects: creates a project of a domain (201), or answers the account's project
   * of that domain unchanged (200). Your-data, an extension of the spec.
   */
  createRankProject(
    body: CreateRankProjectRequest,
    options?: PostOptions,
  ): Promise<AnswerOf<Schemas['RankProjectAnswer']>> {
    return this.unwrap(
      this.http.POST('/api/v1/rank/projects', {
        body,
        headers: idempotencyHeader(options),
        signal: options?.signal,
      }),
    );
  }

  /** PATCH /rank/projects/{project_id}: its name, match or tracking (your-data). */
  updateRankProject(
    projectId: number,
    body: UpdateRankProjectRequest,
    options?: CallOptions,
  ): Promise<AnswerOf<Schemas['RankProjectAnswer']>> {
    return this.unwrap(
      this.http.PATCH('/api/v1/rank/projects/{project_id}', {
        params: { path: { project_id: projectId } },
        body,
        signal: options?.signal,
      }),
    );
  }

  /** DELETE /rank/projects/{project_id}: the project, its keywords and their history (your-data). */
  deleteRankProject(
    projectId: number,
    options?: CallOptions,
  ): Promise<AnswerOf<Schemas['RankProjectDeletedAnswer']>> {
    return this.unwrap(
      this.http.DELETE('/api/v1/rank/projects/{project_id}', {
        params: { path: { project_id: projectId } },
        signal: options?.signal,
      }),
    );
  }

  /**
   * POST /rank/projects/{project_id}/keywords: tracks 1-1,000 keywords (strings or objects with
   * their own market and device); items already tracked come back under `already_tracked`,
   * so re-sending is safe. Past the plan's tracked_keywords limit: SeoApiError 402, nothing added.
   */
  addRankKeywords(
    projectId: number,
    body: AddRankKeywordsRequest,
    options?: PostOptions,
  ): Promise<AnswerOf<Schemas['RankKeywordsAddedAnswer']>> {
    return this.unwrap(
      this.http.POST('/api/v1/rank/projects/{project_id}/keywords', {
        params: { path: { project_id: projectId } },
        body,
        headers: idempotencyHeader(options),
        signal: options?.signal,
      }),
    );
  }

  /** PATCH /rank/keywords/{keyword_id}: pauses a keyword or makes it active again (your-data). */
  updateRankKeyword(
    keywordId: number,
    body: UpdateRankKeywordRequest,
    options?: CallOptions,
  ): Promise<AnswerOf<Schemas['RankKeywordAnswer']>> {
    return this.unwrap(
      this.http.PATCH('/api/v1/rank/keywords/{keyword_id}', {
        params: { path: { keyword_id: keywordId } },
        body,
        signal: options?.signal,
      }),
    );
  }

  /** DELETE /rank/keywords/{keyword_id}: stops tracking a keyword, its history deleted (your-data). */
  deleteRankKeyword(
    keywordId: number,
    options?: CallOptions,
  ): Promise<AnswerOf<Schemas['RankKeywordDeletedAnswer']>> {
    return this.unwrap(
      this.http.DELETE('/api/v1/rank/keywords/{keyword_id}', {
        params: { path: { keyword_id: keywordId } },
        signal: options?.signal,
      }),
    );
  }

  /** GET /gsc/properties: the account's synced Search Console properties (your-data). */
  gscProperties(options?: CallOptions): Promise<AnswerOf<Schemas['GscPropertiesAnswer']>> {
    return this.unwrap(this.http.GET('/api/v1/gsc/properties', { signal: options?.signal }));
  }

  /** GET /gsc/queries: Search Console rows aggregated by one dimension (your-data). */
  gscQueries(
    query: GscQueriesQuery,
    options?: CallOptions,
  ): Promise<AnswerOf<Schemas['GscQueriesAnswer']>> {
    return this.unwrap(
      this.http.GET('/api/v1/gsc/queries', { params: { query }, signal: options?.signal }),
    );
  }

  /** GET /ai-visibility/projects: AI-visibility projects with their scores (your-data). */
  aiVisibilityProjects(
    options?: CallOptions,
  ): Promise<AnswerOf<Schemas['AiVisibilityProjectsAnswer']>> {
    return this.unwrap(
      this.http.GET('/api/v1/ai-visibility/projects', { signal: options?.signal }),
    );
  }

  /** GET /ai-visibility/share-of-voice: a project's latest scan and competitors (your-data). */
  shareOfVoice(
    query: ShareOfVoiceQuery,
    options?: CallOptions,
  ): Promise<AnswerOf<Schemas['ShareOfVoiceAnswer']>> {
    return this.unwrap(
      this.http.GET('/api/v1/ai-visibility/share-of-voice', {
        params: { query },
        signal: options?.signal,
      }),
    );
  }

  /**
   * POST /ai-visibility/projects: creates a project with its brand, market, engine, frequency,
   * prompts and competitors (201; your-data, an extension). Past the plan's
   * ai_visibility_projects or prompts limit: SeoApiError 402, nothing created.
   */
  createAiVisibilityProject(
    body: CreateAiVisibilityProjectRequest,
    options?: PostOptions,
  ): Promise<AnswerOf<Schemas['AiVisibilityProjectCreatedAnswer']>> {
    return this.unwrap(
      this.http.POST('/api/v1/ai-visibility/projects', {
        body,
        headers: idempotencyHeader(options),
        signal: options?.signal,
      }),
    );
  }

  /** GET /ai-visibility/projects/{project_id}/settings: prompts, aliases, competitors, next scan. */
  aiVisibilitySettings(
    projectId: number,
    options?: CallOptions,
  ): Promise<AnswerOf<Schemas['AiVisibilityProjectSettingsAnswer']>> {
    return this.unwrap(
      this.http.GET('/api/v1/ai-visibility/projects/{project_id}/settings', {
        params: { path: { project_id: projectId } },
        signal: options?.signal,
      }),
    );
  }

  /** PATCH /ai-visibility/projects/{project_id}: any member of the create body; answers the settings. */
  updateAiVisibilityProject(
    projectId: number,
    body: UpdateAiVisibilityProjectRequest,
    options?: CallOptions,
  ): Promise<AnswerOf<Schemas['AiVisibilityProjectSettingsAnswer']>> {
    return this.unwrap(
      this.http.PATCH('/api/v1/ai-visibility/projects/{project_id}', {
        params: { path: { project_id: projectId } },
        body,
        signal: options?.signal,
      }),
    );
  }

  /** DELETE /ai-visibility/projects/{project_id}: the project, its scans and answers (your-data). */
  deleteAiVisibilityProject(
    projectId: number,
    options?: CallOptions,
  ): Promise<AnswerOf<Schemas['AiVisibilityProjectDeletedAnswer']>> {
    return this.unwrap(
      this.http.DELETE('/api/v1/ai-visibility/projects/{project_id}', {
        params: { path: { project_id: projectId } },
        signal: options?.signal,
      }),
    );
  }

  /**
   * Any /api/v1 call by method and path (relative to /api/v1), untyped: for generic callers
   * such as the MCP connector. Answers the status, the data (or the top-level members of a
   * 202) and meta; throws SeoApiError like the typed methods. A POST sends an Idempotency-Key
   * (`init.idempotencyKey`, else a new random one), the same on each of its retries.
   */
  async request(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    init: {
      query?: Record<string, string | number | boolean | undefined>;
      body?: unknown;
      signal?: AbortSignal;
      idempotencyKey?: string;
    } = {},
  ): Promise<{ status: number; data: unknown; meta: Record<string, unknown> }> {
    const url = new URL(`${this.baseUrl}/api/v1${path}`);
    for (const [name, value] of Object.entries(init.query ?? {}))
      if (value !== undefined) url.searchParams.set(name, String(value));
    const request = new Request(url, {
      method,
      headers: {
        ...this.headers,
        ...(init.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
        ...(method === 'POST' ? idempotencyHeader(init) : {}),
      },
      body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
      signal: init.signal,
      redirect: 'error',
    });
    const response = await this.send(request);
    const body = envelopeOf(await response.text());
    if (!response.ok || body?.success !== true)
      throw errorFromAnswer(response.status, body, response, this.baseUrl);
    const { success: _s, meta, ...rest } = body;
    return {
      status: response.status,
      data: 'data' in body ? body.data : rest,
      meta: isRecord(meta) ? meta : {},
    };
  }

  /**
   * One request: a time limit per attempt (covering the body too, which is read here),
   * retries where the server says when, transport failures as SeoApiError.
   */
  private async send(request: Request): Promise<Response> {
    const caller = request.signal;
    const template = request.clone();
    for (let attempt = 0; ; attempt++) {
      const timeout = AbortSignal.timeout(this.timeoutMs);
      const signal = AbortSignal.any([caller, timeout]);
      let response: Response;
      try {
        const answer = await this.fetchImpl(
          new Request(template.clone(), { signal, redirect: 'error' }),
        );
        response = new Response(await answer.arrayBuffer(), {
          status: answer.status,
          statusText: answer.statusText,
          headers: answer.headers,
        });
      } catch (error) {
        throw this.transportError(error, caller, timeout);
      }
      if (response.ok && !envelopeOf(await response.clone().text())) {
        throw new SeoApiError({
          code: 'INVALID_RESPONSE',
          status: response.status,
          message: `The API at ${this.baseUrl} answered HTTP ${response.status} without its JSON envelope.`,
        });
      }
      if (!this.retry || attempt >= this.retry.maxRetries) return response;
      const delay = await retryDelay(response);
      if (delay === null || delay > this.retry.maxDelayMs) return response;
      await this.pause(delay, caller);
    }
  }

  private transportError(error: unknown, caller: AbortSignal, timeout: AbortSignal): SeoApiError {
    if (caller.aborted)
      return new SeoApiError({
        code: 'CANCELLED',
        status: null,
        message: 'The call was cancelled.',
        cause: error,
      });
    if (timeout.aborted)
      return new SeoApiError({
        code: 'TIMEOUT',
        status: null,
        message: `The API at ${this.baseUrl} did not answer within ${this.timeoutMs} ms. The call may still have been counted.`,
        cause: error,
      });
    return new SeoApiError({
      code: 'NETWORK_ERROR',
      status: null,
      message: `Could not reach the API at ${this.baseUrl} (${describeCause(error)}).`,
      cause: error,
    });
  }

  /** The success envelope of an openapi-fetch answer, or its error as SeoApiError. */
  private async result<T>(
    call: Promise<{ data?: T; error?: unknown; response: Response }>,
  ): Promise<T> {
    let answer: { data?: T; error?: unknown; response: Response };
    try {
      answer = await call;
    } catch (error) {
      if (error instanceof SeoApiError) throw error;
      // openapi-fetch could not read a success body as JSON
      throw new SeoApiError({
        code: 'INVALID_RESPONSE',
        status: null,
        message: `The API at ${this.baseUrl} answered without its JSON envelope.`,
        cause: error,
      });
    }
    const { data, error, response } = answer;
    if (response.ok && isRecord(data) && data.success === true) return data;
    if (response.ok)
      throw new SeoApiError({
        code: 'INVALID_RESPONSE',
        status: response.status,
        message: `The API at ${this.baseUrl} answered HTTP ${response.status} without its JSON envelope.`,
      });
    const body = isRecord(error) && typeof error.success === 'boolean' ? error : undefined;
    throw errorFromAnswer(response.status, body, response, this.baseUrl);
  }

  private async unwrap<E extends { data: unknown; meta: unknown }>(
    call: Promise<{ data?: E; error?: unknown; response: Response }>,
  ): Promise<AnswerOf<E>> {
    const envelope = await this.result(call);
    return { data: envelope.data, meta: envelope.meta };
  }
}
