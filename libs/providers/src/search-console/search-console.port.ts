/**
 * The port the Search Console sync (apps/worker/src/gsc-sync, docs/gsc-sync.md) reads facts
 * through. Two implementations: the Google client (OAuth refresh-token exchange and
 * `searchAnalytics.query` against `GOOGLE_SEARCH_CONSOLE_URL`, collectors-wire.md §3; built
 * by the connect-flow work, bound to {@link SEARCH_CONSOLE_SOURCE}) for properties with a
 * connection, and the sandbox source (./sandbox-search-console.source.ts, deterministic
 * generated facts, no network) for `is_sandbox` properties. The sync owns paging, the day
 * plan, quotas and what an error does to a property; a source only answers one page of one
 * day, or throws a {@link SearchConsoleError} saying which kind of failure it was.
 */

/** What a source needs to call Google for one connection (an access token), opaque to the sync. */
export interface SearchConsoleAccess {
  /** The connection the token belongs to (null for the sandbox). */
  readonly connectionId: number | null;
  readonly accessToken: string;
  /** When the token stops working (epoch ms), if the source knows. */
  readonly expiresAt?: number;
}

/**
 * One row of `searchAnalytics.query` with dimensions `date, query, page, country, device`
 * in that order: keys = [YYYY-MM-DD, query, page, country (ISO 3166-1 alpha-3, lower case
 * as Google answers), device (DESKTOP | MOBILE | TABLET)].
 */
export interface SearchConsoleRow {
  keys: string[];
  clicks: number;
  impressions: number;
  ctr: number;
  position: number;
}

export interface SearchConsolePage {
  rows: SearchConsoleRow[];
}

/** The dimensions every query asks for, in the order of a row's keys. */
export const SEARCH_CONSOLE_DIMENSIONS = ['date', 'query', 'page', 'country', 'device'] as const;

/** Google's largest page (`rowLimit` up to 25,000). */
export const SEARCH_CONSOLE_MAX_ROW_LIMIT = 25_000;

export interface SearchConsoleSource {
  /**
   * One page of one day's facts: `startDate = endDate = day`, the dimensions above,
   * `dataState: final`, `type: web`, `startRow`, `rowLimit`. An empty or short page is the
   * last one.
   */
  query(
    access: SearchConsoleAccess,
    siteUrl: string,
    day: string,
    startRow: number,
    rowLimit: number,
  ): Promise<SearchConsolePage>;
  /**
   * An access token for a connection (a refresh-token exchange; the implementation may cache
   * it until it expires). `invalid_grant` throws kind `reauth_required`.
   */
  accessFor(connection: { id: number; refreshTokenEnc: string }): Promise<SearchConsoleAccess>;
}

/** DI token of the Google implementation (absent: connected properties are not synced). */
export const SEARCH_CONSOLE_SOURCE = Symbol('SEARCH_CONSOLE_SOURCE');

/**
 * - `reauth_required`: Google refused the refresh token (`invalid_grant`), or an access token
 *   stays refused after one refresh: the connection and its properties need "Reconnect".
 * - `quota`: a 429, or a 403 whose reason is rateLimitExceeded, userRateLimitExceeded,
 *   quotaExceeded or dailyLimitExceeded (collectors-wire.md §3.5): back off this property.
 * - `not_found`: the site is gone from the Google account or the user lost permission
 *   (403 forbidden, 404).
 * - `transient`: a network error, a timeout or a 5xx: try again at the next interval.
 * - `fatal`: anything else (a 400, an answer that is not Google's shape).
 */
export type SearchConsoleErrorKind =
  'reauth_required' | 'quota' | 'not_found' | 'transient' | 'fatal';

export class SearchConsoleError extends Error {
  override readonly name = 'SearchConsoleError';
  constructor(
    readonly kind: SearchConsoleErrorKind,
    message: string,
    readonly details: {
      /** The HTTP status Google answered, if any. */
      status?: number;
      /** Google's `error.errors[0].reason`, if any. */
      reason?: string;
      /** How long to wait before the next request (kind `quota`), when Google says. */
      retryAfterMs?: number;
    } = {},
  ) {
    super(message);
  }

  get retryAfterMs(): number | undefined {
    return this.details.retryAfterMs;
  }
}

export function isSearchConsoleError(e: unknown): e is SearchConsoleError {
  return e instanceof SearchConsoleError;
}
