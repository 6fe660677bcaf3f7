import { Inject, Injectable } from '@nestjs/common';
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { APP_CONFIG, ApiError, AppConfig, Clock, bearerToken } from '@app/core';
import { AdminAuthThrottle } from '@app/redis';
import { safeReturnTo } from '../account-area/account-pages';

/** The operator-page cookie: HttpOnly, SameSite=Strict, Path=/admin, one hour. */
const OPS_COOKIE = 'ops_session';
const OPS_COOKIE_TTL_SECONDS = 3600;

/**
 * Who may read the operator endpoints: GET /metrics (the admin token, or METRICS_TOKEN when
 * set), /admin/queues and /admin/docs (the admin token as a bearer, or the signed cookie a
 * browser gets from `?token=<admin token>`). Tokens are compared in constant time (both sides
 * hashed to equal length). Failed attempts count on the same per-IP throttle as the admin API.
 *
 * The cookie is `<expiry seconds>.<HMAC-SHA256(expiry)>` keyed by a hash of the admin token:
 * it carries no secret, cannot be forged without the token, stops working when the token is
 * rotated, and expires after OPS_COOKIE_TTL_SECONDS.
 */
@Injectable()
export class OpsAuth {
  private readonly admin: Buffer | null;
  private readonly metricsOnly: Buffer | null;
  private readonly cookieKey: Buffer | null;
  readonly secureCookie: boolean;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly throttle: AdminAuthThrottle,
    private readonly clock: Clock,
  ) {
    this.admin = config.adminToken ? digest(config.adminToken) : null;
    this.metricsOnly = config.metricsToken ? digest(config.metricsToken) : null;
    this.cookieKey = config.adminToken
      ? createHash('sha256').update(`ops-cookie:${config.adminToken}`, 'utf8').digest()
      : null;
    this.secureCookie = config.publicBaseUrl.startsWith('https:');
  }

  /** Whether /admin/queues and /admin/docs exist (ADMIN_TOKEN set). */
  get adminEnabled(): boolean {
    return this.admin !== null;
  }

  /** Whether /metrics exists (ADMIN_TOKEN or METRICS_TOKEN set). */
  get metricsEnabled(): boolean {
    return this.admin !== null || this.metricsOnly !== null;
  }

  /** True when the Authorization header carries the admin token (or METRICS_TOKEN when `metrics`). */
  bearerOk(req: Request, metrics: boolean): boolean {
    const token = bearerToken(req.headers.authorization);
    if (token === null) return false;
    const d = digest(token);
    // Both comparisons always run: the time does not say which token matched.
    const isAdmin = this.admin !== null && timingSafeEqual(d, this.admin);
    const isMetrics = metrics && this.metricsOnly !== null && timingSafeEqual(d, this.metricsOnly);
    return isAdmin || isMetrics;
  }

  /** True when `token` is the admin token. */
  adminTokenOk(token: string): boolean {
    return this.admin !== null && timingSafeEqual(digest(token), this.admin);
  }

  /** A fresh cookie value valid for OPS_COOKIE_TTL_SECONDS. */
  issueCookie(): string {
    const expires = Math.floor(this.clock.now().getTime() / 1000) + OPS_COOKIE_TTL_SECONDS;
    return `${expires}.${this.sign(String(expires))}`;
  }

  /** True when the request carries an unexpired cookie signed with the current admin token. */
  cookieOk(req: Request): boolean {
    if (!this.cookieKey) return false;
    const value = cookieOf(req, OPS_COOKIE);
    const m = value ? /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(value) : null;
    if (!m) return false;
    if (Number(m[1]) * 1000 <= this.clock.now().getTime()) return false;
    return timingSafeEqual(Buffer.from(this.sign(m[1])), Buffer.from(m[2]));
  }

  /** Counts a failure (when `failed`) on the caller's IP and throws 429 when the IP is at the limit. */
  throttleOrThrow(req: Request, failed: boolean): Promise<void> {
    return this.throttle.checkOrThrow(req.ip ?? '', failed);
  }

  /**
   * Express middleware for the operator pages (/admin/queues, /admin/docs): 404 without
   * ADMIN_TOKEN; `?token=` → cookie + 303 to the same URL without the token; then the admin
   * bearer or the cookie, else 401 (all as the error envelope, through the exception filter).
   */
  pagesMiddleware() {
    return (req: Request, res: Response, next: NextFunction): void => {
      void this.authorizePage(req, res).then(
        (proceed) => (proceed ? next() : undefined),
        (err: unknown) => next(err),
      );
    };
  }

  private async authorizePage(req: Request, res: Response): Promise<boolean> {
    if (!this.adminEnabled) {
      throw new ApiError('NOT_FOUND', `Unknown endpoint: ${req.method} ${req.baseUrl}`);
    }
    const offered = new URL(req.originalUrl, 'http://x').searchParams.get('token');
    if (offered !== null) {
      const ok = this.adminTokenOk(offered);
      await this.throttleOrThrow(req, !ok);
      if (!ok) throw new ApiError('UNAUTHORIZED', 'Missing or invalid admin token.');
      res.setHeader(
        'Set-Cookie',
        `${OPS_COOKIE}=${this.issueCookie()}; Path=/admin; Max-Age=${OPS_COOKIE_TTL_SECONDS}; HttpOnly; SameSite=Strict${this.secureCookie ? '; Secure' : ''}`,
      );
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('Referrer-Policy', 'no-referrer');
      res.redirect(303, handOffLocation(req.originalUrl, req.baseUrl));
      return false;
    }
    const ok = this.bearerOk(req, false) || this.cookieOk(req);
    await this.throttleOrThrow(req, !ok);
    if (!ok) {
      throw new ApiError(
        'UNAUTHORIZED',
        'Missing or invalid admin token. Send it as a bearer token, or open this page once with ?token=<admin token> to get a one-hour cookie.',
      );
    }
    return true;
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.cookieKey!).update(payload).digest('base64url');
  }
}

/** A mount point as Express matched it: letters, digits, `/`, `_`, `-`. */
const MOUNT = /^(\/[A-Za-z0-9_-]+)+$/;

/**
 * Where the `?token=` hand-off sends the browser: the requested URL without `token`,
 * resolved as a browser resolves it (dot segments in every spelling a URL parser honours,
 * backslashes), then checked as the sign-in's `return_to` is (safeReturnTo: a path on this
 * origin) and held below the page's mount point. Anything else goes to the mount point
 * itself: `/admin/queues/%2e%2e/%2e%2e/%2e%2e//evil.example` resolves to `//evil.example`,
 * which a browser reads as another host.
 */
export function handOffLocation(originalUrl: string, mount: string): string {
  if (!MOUNT.test(mount)) return '/';
  const home = mount;
  let url: URL;
  try {
    url = new URL(originalUrl, 'http://ops.invalid');
  } catch {
    return home;
  }
  url.searchParams.delete('token');
  const target = safeReturnTo(`${url.pathname}${url.search}`);
  if (target === null) return home;
  const path = target.toLowerCase();
  const base = home.toLowerCase();
  const below = path === base || path.startsWith(`${base}/`) || path.startsWith(`${base}?`);
  return below ? target : home;
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** The value of a cookie in the request's Cookie header, or null. */
function cookieOf(req: Request, name: string): string | null {
  const header = req.headers.cookie;
  if (!header) return null;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return null;
}
