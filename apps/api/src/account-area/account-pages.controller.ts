import { Controller, Get, Inject, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { APP_CONFIG, AppConfig, ApiError, nextMonthStart, Clock } from '@app/core';
import {
  AccountsService,
  ApiKeysService,
  SessionContext,
  SessionsService,
  UsersService,
} from '@app/accounts';
import { Public } from '@app/gateway';
import { UsageHistoryService } from '@app/billing';
import { UsageService } from '../usage/usage.service';
import { UsageAlertsService } from '../usage/usage-alerts.service';
import {
  CONSOLE_PAGE,
  CONSOLE_PATH,
  ConsoleQuota,
  SIGN_IN_CSRF_COOKIE,
  SIGN_IN_CSRF_MAX_AGE_SECONDS,
  SIGN_IN_PAGE,
  SIGN_IN_PATH,
  SignInView,
  consolePage,
  safeReturnTo,
  signInPage,
} from './account-pages';
import {
  clearSessionCookie,
  isSecureBase,
  readCookie,
  readSessionToken,
  setSessionCookie,
} from './session-cookie';
import { CSRF_FIELD, newCsrfToken, sessionCsrfToken, tokensMatch } from '../pages/csrf';
import { MESSAGE_PAGE, MessagePage } from '../pages/message.view';
import { pageHeaders, readForm, redirectPage, renderPage } from '../pages/page-http';

const CSRF_TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** The days of the console's usage chart. */
const CONSOLE_CHART_DAYS = 30;

const QUOTA_NAMES: Array<[string, string]> = [
  ['keyword_research_per_month', 'Keyword research lookups'],
  ['backlinks_per_month', 'Backlinks fetches'],
  ['site_audit_crawls_per_month', 'Site-audit crawls'],
  ['site_audit_rolling_page_budget', 'Site-audit pages (last 30 days)'],
];

/**
 * The account pages: GET/POST /account/sign-in, GET /account (the console), POST
 * /account/sign-out (their stylesheet and script are served under /assets). Outside the
 * API-key pipeline; cross-site POSTs are refused by the global SameOriginGuard before these
 * handlers run, and every form carries a CSRF token checked here (sign-in: double submit
 * against a short-lived cookie; sign-out: derived from the session).
 */
@ApiExcludeController()
@Public()
@Controller('account')
export class AccountPagesController {
  private readonly secure: boolean;

  constructor(
    private readonly users: UsersService,
    private readonly sessions: SessionsService,
    private readonly keys: ApiKeysService,
    private readonly accounts: AccountsService,
    private readonly usage: UsageService,
    private readonly history: UsageHistoryService,
    private readonly alerts: UsageAlertsService,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.secure = isSecureBase(config.publicBaseUrl);
  }

  @Get('sign-in')
  async signInPage(
    @Req() req: Request,
    @Res() res: Response,
    @Query('return_to') returnTo?: unknown,
    @Query('signed_out') signedOut?: unknown,
  ): Promise<void> {
    const target = safeReturnTo(returnTo);
    if (await this.currentSession(req)) {
      redirectPage(res, target ?? CONSOLE_PATH);
      return;
    }
    const csrf = this.signInCsrf(req, res);
    await this.sendSignIn(res, 200, {
      csrfToken: csrf,
      returnTo: target,
      notice: signedOut === '1' ? 'You are signed out.' : undefined,
    });
  }

  @Post('sign-in')
  async signIn(@Req() req: Request, @Res() res: Response): Promise<void> {
    const form = await readForm(req);
    if (form === null) {
      await this.signInForm(req, res, 413, {}, 'The form sent too much data.');
      return;
    }
    const email = (form.get('email') ?? '').slice(0, 254);
    const password = form.get('password') ?? '';
    const returnTo = safeReturnTo(form.get('return_to'));
    const view = { email, returnTo };

    const cookieToken = readCookie(req, SIGN_IN_CSRF_COOKIE);
    if (!tokensMatch(form.get(CSRF_FIELD), cookieToken)) {
      const message = 'Your sign-in form expired or was not sent from this site. Please try again.';
      await this.signInForm(req, res, 403, view, message, true);
      return;
    }
    if (email.trim() === '' || password === '') {
      await this.signInForm(req, res, 401, view, 'Enter your email and your password.');
      return;
    }
    try {
      const signedIn = await this.users.signIn(email, password, req.ip ?? '');
      const previous = readSessionToken(req);
      if (previous) await this.sessions.end(previous);
      setSessionCookie(res, signedIn.token, this.secure);
      this.clearSignInCsrf(res);
      redirectPage(res, returnTo ?? CONSOLE_PATH);
    } catch (err) {
      if (!(err instanceof ApiError) || (err.status !== 401 && err.status !== 429)) throw err;
      for (const [name, value] of Object.entries(err.headers ?? {})) {
        res.setHeader(name, String(value));
      }
      const message =
        err.status === 429 ? tooManyAttempts(err.meta?.retry_after) : 'Invalid email or password.';
      await this.signInForm(req, res, err.status, view, message);
    }
  }

  @Get()
  async console(@Req() req: Request, @Res() res: Response): Promise<void> {
    const signedIn = await this.currentSession(req);
    if (!signedIn) {
      redirectPage(res, SIGN_IN_PATH);
      return;
    }
    const { session, token } = signedIn;
    const [account, usage, keys, history, keyCalls, alerts] = await Promise.all([
      this.accounts.find(session.accountId),
      this.usage.ofAccount(session.accountId),
      this.keys.list(session.accountId, true),
      this.history.history(session.accountId, CONSOLE_CHART_DAYS),
      this.history.callsPerKeyThisMonth(session.accountId),
      this.alerts.view(session.accountId),
    ]);
    if (!account || !usage) {
      // The account is gone: the session is worthless.
      await this.sessions.end(token);
      clearSessionCookie(res, this.secure);
      redirectPage(res, SIGN_IN_PATH);
      return;
    }
    const record = usage.record;
    const quotas: ConsoleQuota[] = QUOTA_NAMES.map(([member, name]) => {
      const figure = (record.quotas as Record<string, { used: number; limit: number }>)[member];
      return { name, used: figure?.used ?? 0, limit: figure?.limit ?? 0 };
    });
    pageHeaders(res);
    await renderPage(
      res,
      200,
      CONSOLE_PAGE,
      consolePage({
        csrfToken: sessionCsrfToken(token),
        email: session.email,
        accountName: account.name,
        plan: record.plan,
        apiAccess: record.api_access,
        callsUsed: record.api_calls_used,
        callsLimit: record.unlimited ? null : record.api_calls_limit,
        resetsAt: nextMonthStart(this.clock.now()),
        quotas,
        credits: record.credits,
        keys: keys.map((k) => ({
          id: k.id,
          label: k.label,
          prefix: k.prefix,
          createdAt: k.createdAt,
          lastUsedAt: k.lastUsedAt,
          revokedAt: k.revokedAt,
        })),
        keyCallsThisMonth: keyCalls,
        days: history.days,
        endpoints: history.endpoints,
        alerts: {
          webhookUrl: alerts.webhook_url,
          thresholds: alerts.thresholds,
          lastFired: alerts.last_fired,
        },
      }),
    );
  }

  @Post('sign-out')
  async signOut(@Req() req: Request, @Res() res: Response): Promise<void> {
    const form = (await readForm(req)) ?? new URLSearchParams();
    const token = readSessionToken(req);
    const session = token ? await this.sessions.resolve(token) : null;
    if (!token || !session) {
      clearSessionCookie(res, this.secure);
      redirectPage(res, `${SIGN_IN_PATH}?signed_out=1`);
      return;
    }
    if (!tokensMatch(form.get(CSRF_FIELD), sessionCsrfToken(token))) {
      const page: MessagePage = {
        title: 'Not signed out',
        message: 'This sign-out form expired or was not sent from this site, so nothing changed.',
        link: CONSOLE_PATH,
        linkText: 'Back to your account',
      };
      pageHeaders(res);
      await renderPage(res, 403, MESSAGE_PAGE, page);
      return;
    }
    await this.sessions.end(token);
    clearSessionCookie(res, this.secure);
    redirectPage(res, `${SIGN_IN_PATH}?signed_out=1`);
  }

  // -------------------------------------------------------------------------------------

  private async currentSession(
    req: Request,
  ): Promise<{ session: SessionContext; token: string } | null> {
    const token = readSessionToken(req);
    if (!token) return null;
    const session = await this.sessions.resolve(token);
    return session ? { session, token } : null;
  }

  /** The sign-in form's CSRF token: the one in the short-lived cookie, or a new one. */
  private signInCsrf(req: Request, res: Response, renew = false): string {
    const existing = readCookie(req, SIGN_IN_CSRF_COOKIE);
    const token = !renew && existing && CSRF_TOKEN_SHAPE.test(existing) ? existing : newCsrfToken();
    res.append(
      'Set-Cookie',
      `${SIGN_IN_CSRF_COOKIE}=${token}; Path=${SIGN_IN_PATH}; Max-Age=${SIGN_IN_CSRF_MAX_AGE_SECONDS}; HttpOnly; SameSite=Strict${this.secure ? '; Secure' : ''}`,
    );
    return token;
  }

  private clearSignInCsrf(res: Response): void {
    res.append(
      'Set-Cookie',
      `${SIGN_IN_CSRF_COOKIE}=; Path=${SIGN_IN_PATH}; Max-Age=0; HttpOnly; SameSite=Strict${this.secure ? '; Secure' : ''}`,
    );
  }

  private signInForm(
    req: Request,
    res: Response,
    status: number,
    view: { email?: string; returnTo?: string | null },
    error: string,
    renewCsrf = false,
  ): Promise<void> {
    return this.sendSignIn(res, status, {
      ...view,
      error,
      csrfToken: this.signInCsrf(req, res, renewCsrf),
    });
  }

  private sendSignIn(res: Response, status: number, view: SignInView): Promise<void> {
    pageHeaders(res);
    return renderPage(res, status, SIGN_IN_PAGE, signInPage(view));
  }
}

function tooManyAttempts(retryAfter: unknown): string {
  const seconds = typeof retryAfter === 'number' && retryAfter > 0 ? retryAfter : 900;
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}
