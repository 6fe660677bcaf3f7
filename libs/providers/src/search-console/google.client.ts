import { Logger } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import {
  SEARCH_CONSOLE_DIMENSIONS,
  SearchConsoleError,
  SearchConsoleErrorKind,
  SearchConsoleRow,
} from './search-console.port';

/** What the Google client needs (AppConfig.google, with the client id and secret present). */
export interface GoogleClientOptions {
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  tokenUrl: string;
  revokeUrl: string;
  userinfoUrl: string;
  searchConsoleUrl: string;
  /** Per request, reading the body included. */
  timeoutMs: number;
}

/** The scopes asked at connect: the e-mail (OIDC) and read-only Search Console. */
export const GSC_CONNECT_SCOPE = 'openid email https://www.googleapis.com/auth/webmasters.readonly';
/** SearchConsoleError.details.reason of a consent without GSC_READ_SCOPE. */
export const SCOPE_NOT_GRANTED = 'scope_not_granted';
/** The scope without which a connection is refused (a user can untick it on Google's page). */
export const GSC_READ_SCOPE = 'https://www.googleapis.com/auth/webmasters.readonly';

/** One entry of sites.list, its permission level in the reference's camelCase spelling. */
export interface GoogleSite {
  siteUrl: string;
  /** `siteOwner`, `siteFullUser`, `siteRestrictedUser` or `siteUnverifiedUser`. */
  permissionLevel: string;
}

/** The answer of a code exchange. */
export interface GoogleTokens {
  accessToken: string;
  /** Seconds. */
  expiresIn: number;
  refreshToken: string;
  scope: string;
}

/** A PKCE pair (RFC 7636, S256): the verifier kept server-side, the challenge sent to Google. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(48).toString('base64url'); // 64 characters
  return { verifier, challenge: pkceChallenge(verifier) };
}

export function pkceChallenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** The discovery document's SITE_OWNER spellings → the reference's siteOwner ones. */
const PERMISSION_LEVELS: Record<string, string> = {
  siteowner: 'siteOwner',
  site_owner: 'siteOwner',
  sitefulluser: 'siteFullUser',
  site_full_user: 'siteFullUser',
  siterestricteduser: 'siteRestrictedUser',
  site_restricted_user: 'siteRestrictedUser',
  siteunverifieduser: 'siteUnverifiedUser',
  site_unverified_user: 'siteUnverifiedUser',
};

export function normalizePermissionLevel(level: unknown): string {
  if (typeof level !== 'string') return 'siteUnverifiedUser';
  return PERMISSION_LEVELS[level.toLowerCase()] ?? 'siteUnverifiedUser';
}

/** 403 reasons that are a quota, not a refusal (collectors-wire §3.5). */
const QUOTA_REASONS = new Set([
  'rateLimitExceeded',
  'userRateLimitExceeded',
  'quotaExceeded',
  'dailyLimitExceeded',
]);
/** Without Retry-After: a per-minute limit waits a minute, a load quota 15 minutes. */
const RATE_LIMIT_WAIT_S = 60;
const LOAD_QUOTA_WAIT_S = 900;

/** An access token cached until shortly before it expires. */
interface CachedToken {
  accessToken: string;
  expiresAt: number;
}
const EXPIRY_MARGIN_MS = 60_000;
const MAX_CACHED_TOKENS = 10_000;

type Call = 'token' | 'refresh' | 'revoke' | 'userinfo' | 'sites' | 'query';

/**
 * Google's OAuth 2.0 web-server flow and the Search Console API over HTTP (collectors-wire
 * §3.1-3.5): the authorization URL (PKCE S256, offline access, consent), the code exchange,
 * refresh (the access token cached per refresh token until a minute before it expires),
 * revocation, the userinfo e-mail, sites.list and searchAnalytics.query. Each request has its
 * own timeout. Failures are SearchConsoleErrors of the port's kinds; tokens, the client secret
 * and Google's bodies are never logged (only the call, the HTTP status and Google's reason).
 */
export class GoogleClient {
  private readonly logger = new Logger('Google');
  private readonly cache = new Map<string, CachedToken>();

  constructor(
    private readonly options: GoogleClientOptions,
    private readonly now: () => number = Date.now,
  ) {}

  /** Where the browser is sent to consent (collectors-wire §3.1, step 1). */
  authorizationUrl(p: { redirectUri: string; state: string; codeChallenge: string }): string {
    const url = new URL(this.options.authorizeUrl);
    const params: Record<string, string> = {
      response_type: 'code',
      client_id: this.options.clientId,
      redirect_uri: p.redirectUri,
      scope: GSC_CONNECT_SCOPE,
      access_type: 'offline',
      prompt: 'consent',
      include_granted_scopes: 'true',
      state: p.state,
      code_challenge: p.codeChallenge,
      code_challenge_method: 'S256',
    };
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    return url.toString();
  }

  /**
   * Exchanges an authorization code (step 3). Refused without a refresh token or without the
   * Search Console scope (the user unticked it): `fatal`.
   */
  async exchangeCode(p: {
    code: string;
    codeVerifier: string;
    redirectUri: string;
  }): Promise<GoogleTokens> {
    const body = await this.tokenCall('token', {
      grant_type: 'authorization_code',
      code: p.code,
      code_verifier: p.codeVerifier,
      redirect_uri: p.redirectUri,
    });
    const scope = typeof body.scope === 'string' ? body.scope : '';
    if (!scope.split(' ').includes(GSC_READ_SCOPE)) {
      throw new SearchConsoleError('fatal', 'Search Console access was not granted', {
        reason: SCOPE_NOT_GRANTED,
      });
    }
    if (typeof body.refresh_token !== 'string' || body.refresh_token === '') {
      throw new SearchConsoleError('fatal', 'Google gave no refresh token');
    }
    const tokens: GoogleTokens = {
      accessToken: stringField(body, 'access_token'),
      expiresIn: numberField(body, 'expires_in', 3599),
      refreshToken: body.refresh_token,
      scope,
    };
    this.remember(tokens.refreshToken, tokens.accessToken, tokens.expiresIn);
    return tokens;
  }

  /**
   * An access token for a refresh token: the cached one while it has more than a minute left,
   * else a refresh (step 4). `invalid_grant` → `reauth_required`.
   */
  async accessToken(refreshToken: string): Promise<string> {
    const key = cacheKey(refreshToken);
    const cached = this.cache.get(key);
    if (cached && cached.expiresAt > this.now()) return cached.accessToken;
    const body = await this.tokenCall('refresh', {
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
    });
    const accessToken = stringField(body, 'access_token');
    this.remember(refreshToken, accessToken, numberField(body, 'expires_in', 3599));
    return accessToken;
  }

  /** Drops the cached access token of a refresh token (after a 401 with it). */
  forget(refreshToken: string): void {
    this.cache.delete(cacheKey(refreshToken));
  }

  /**
   * Revokes a grant at Google (the token in the form body, never in the URL). A token Google
   * no longer knows (400) counts as revoked.
   */
  async revoke(token: string): Promise<void> {
    this.forget(token);
    const res = await this.send('revoke', this.options.revokeUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token }).toString(),
    });
    if (res.status === 200 || res.status === 400) return;
    throw this.failure('revoke', res);
  }

  /** The Google account's e-mail (OIDC userinfo). */
  async userEmail(accessToken: string): Promise<string> {
    const body = await this.apiCall('userinfo', this.options.userinfoUrl, accessToken);
    const email = (body as { email?: unknown }).email;
    if (typeof email !== 'string' || email === '') {
      throw new SearchConsoleError('fatal', 'Google gave no e-mail (scope email missing)');
    }
    return email;
  }

  /** sites.list: every site of the Google account (absent siteEntry = none). */
  async listSites(accessToken: string): Promise<GoogleSite[]> {
    const body = await this.apiCall('sites', `${this.options.searchConsoleUrl}/sites`, accessToken);
    const entries = (body as { siteEntry?: unknown }).siteEntry;
    if (!Array.isArray(entries)) return [];
    return entries
      .filter((e): e is { siteUrl: string; permissionLevel?: unknown } => {
        return typeof (e as { siteUrl?: unknown })?.siteUrl === 'string';
      })
      .map((e) => ({
        siteUrl: e.siteUrl,
        permissionLevel: normalizePermissionLevel(e.permissionLevel),
      }));
  }

  /**
   * searchAnalytics.query of one day (final data, web search), dimensions SEARCH_CONSOLE_DIMENSIONS,
   * `rowLimit` rows from `startRow` (absent rows = an empty page).
   */
  async queryDay(
    accessToken: string,
    siteUrl: string,
    day: string,
    startRow: number,
    rowLimit: number,
  ): Promise<SearchConsoleRow[]> {
    const url = `${this.options.searchConsoleUrl}/sites/${encodeURIComponent(siteUrl)}/searchAnalytics/query`;
    const body = await this.apiCall('query', url, accessToken, {
      startDate: day,
      endDate: day,
      dimensions: [...SEARCH_CONSOLE_DIMENSIONS],
      type: 'web',
      dataState: 'final',
      aggregationType: 'auto',
      rowLimit,
      startRow,
    });
    const rows = (body as { rows?: unknown }).rows;
    if (rows === undefined) return [];
    if (!Array.isArray(rows)) throw new SearchConsoleError('fatal', 'rows is not an array');
    return rows.map(analyticsRow);
  }

  // -------------------------------------------------------------------------------------

  private remember(refreshToken: string, accessToken: string, expiresIn: number): void {
    if (this.cache.size >= MAX_CACHED_TOKENS) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
    this.cache.set(cacheKey(refreshToken), {
      accessToken,
      expiresAt: this.now() + expiresIn * 1000 - EXPIRY_MARGIN_MS,
    });
  }

  /** A form POST to the token endpoint with the client's credentials; its JSON answer. */
  private async tokenCall(
    call: Call,
    fields: Record<string, string>,
  ): Promise<Record<string, unknown>> {
    const res = await this.send(call, this.options.tokenUrl, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Accept: 'application/json',
      },
      body: new URLSearchParams({
        ...fields,
        client_id: this.options.clientId,
        client_secret: this.options.clientSecret,
      }).toString(),
    });
    if (res.status !== 200) throw this.failure(call, res);
    return jsonObject(res.text);
  }

  /** A bearer-authenticated GET (or JSON POST with `body`) of Google's APIs; its JSON answer. */
  private async apiCall(
    call: Call,
    url: string,
    accessToken: string,
    body?: unknown,
  ): Promise<Record<string, unknown>> {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${accessToken}`,
      Accept: 'application/json',
    };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await this.send(call, url, {
      method: body === undefined ? 'GET' : 'POST',
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (res.status !== 200) throw this.failure(call, res);
    return jsonObject(res.text);
  }

  /** One HTTP request within the timeout: status, Retry-After and body text. */
  private async send(
    call: Call,
    url: string,
    init: RequestInit,
  ): Promise<{ status: number; retryAfter: string | null; text: string }> {
    const signal = AbortSignal.timeout(this.options.timeoutMs);
    try {
      const res = await fetch(url, { ...init, signal, redirect: 'error' });
      return {
        status: res.status,
        retryAfter: res.headers.get('retry-after'),
        text: await res.text(),
      };
    } catch (e) {
      const err = e as Error;
      const timedOut = signal.aborted || err.name === 'TimeoutError' || err.name === 'AbortError';
      const reason = timedOut
        ? `timed out after ${this.options.timeoutMs} ms`
        : `network error${(err as { cause?: { code?: string } }).cause?.code ? ` (${(err as { cause?: { code?: string } }).cause!.code})` : ''}`;
      this.logger.warn({ call, reason }, 'Google call failed');
      throw new SearchConsoleError('transient', reason);
    }
  }

  /** The port's error of a non-200 answer (collectors-wire §3.1 refresh failure, §3.5). */
  private failure(
    call: Call,
    res: { status: number; retryAfter: string | null; text: string },
  ): SearchConsoleError {
    const error = classify(call, res);
    this.logger.warn(
      { call, status: res.status, kind: error.kind, reason: error.message },
      'Google call failed',
    );
    return error;
  }
}

/** The classification of `GoogleClient.failure`, exported for its unit test. */
export function classify(
  call: Call,
  res: { status: number; retryAfter: string | null; text: string },
): SearchConsoleError {
  const body = safeJson(res.text);
  const oauthError = typeof body?.error === 'string' ? body.error : null;
  const envelope =
    body && typeof body.error === 'object' && body.error !== null
      ? (body.error as {
          message?: unknown;
          errors?: Array<{ reason?: unknown }>;
          status?: unknown;
        })
      : null;
  const reason =
    oauthError ??
    (typeof envelope?.errors?.[0]?.reason === 'string' ? envelope.errors[0].reason : null) ??
    (typeof envelope?.status === 'string' ? envelope.status : null) ??
    `HTTP ${res.status}`;
  const fail = (kind: SearchConsoleErrorKind, retryAfterS: number | null = null) =>
    new SearchConsoleError(kind, `${call}: ${reason}`, {
      status: res.status,
      reason,
      ...(retryAfterS === null ? {} : { retryAfterMs: retryAfterS * 1000 }),
    });

  if (oauthError === 'invalid_grant') return fail('reauth_required');
  if (res.status === 429) return fail('quota', retryAfterSeconds(res.retryAfter, reason));
  if (res.status === 403 && QUOTA_REASONS.has(reason)) {
    return fail('quota', retryAfterSeconds(res.retryAfter, reason));
  }
  if (res.status >= 500) return fail('transient', retryAfterSeconds(res.retryAfter, null));
  if (call === 'query' || call === 'sites') {
    if (res.status === 403 || res.status === 404) return fail('not_found');
    // A rejected access token: the caller refreshes and tries again.
    if (res.status === 401) return fail('transient');
  }
  if (call === 'userinfo' && res.status === 401) return fail('transient');
  return fail('fatal');
}

/** Retry-After in seconds (delta or HTTP date); without it, by the kind of limit. */
function retryAfterSeconds(header: string | null, reason: string | null): number | null {
  if (header) {
    if (/^\d+$/.test(header.trim())) return Number(header.trim());
    const at = Date.parse(header);
    if (!Number.isNaN(at)) return Math.max(0, Math.ceil((at - Date.now()) / 1000));
  }
  if (reason === null) return null;
  return reason === 'quotaExceeded' || reason === 'dailyLimitExceeded'
    ? LOAD_QUOTA_WAIT_S
    : RATE_LIMIT_WAIT_S;
}

function cacheKey(refreshToken: string): string {
  return createHash('sha256').update(refreshToken).digest('base64url');
}

function safeJson(text: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v)
      ? (v as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

function jsonObject(text: string): Record<string, unknown> {
  const v = safeJson(text);
  if (!v)
    throw new SearchConsoleError(
      'transient',
      'Google answered something that is not a JSON object',
    );
  return v;
}

function stringField(body: Record<string, unknown>, name: string): string {
  const v = body[name];
  if (typeof v !== 'string' || v === '') throw new SearchConsoleError('fatal', `${name} missing`);
  return v;
}

function numberField(body: Record<string, unknown>, name: string, fallback: number): number {
  const v = body[name];
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : fallback;
}

function analyticsRow(r: unknown): SearchConsoleRow {
  const row = r as Partial<SearchConsoleRow>;
  const numbers = [row.clicks, row.impressions, row.ctr, row.position];
  if (
    !Array.isArray(row.keys) ||
    !row.keys.every((k) => typeof k === 'string') ||
    !numbers.every((n) => typeof n === 'number' && Number.isFinite(n))
  ) {
    throw new SearchConsoleError('fatal', 'a row of searchAnalytics.query is malformed');
  }
  return {
    keys: row.keys,
    clicks: row.clicks!,
    impressions: row.impressions!,
    ctr: row.ctr!,
    position: row.position!,
  };
}
