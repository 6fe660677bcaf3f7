import { Controller, Get, Inject, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { APP_CONFIG, AppConfig, ApiError } from '@app/core';
import { SessionsService, UsersService } from '@app/accounts';
import { Public } from '@app/gateway';
import { OAuthClientsService } from '@app/oauth';
import { CSRF_FIELD, newCsrfToken, tokensMatch } from '../pages/csrf';
import { pageHeaders, readForm, redirectPage, renderPage } from '../pages/page-response';
import {
  CONSOLE_PATH,
  SIGN_IN_CSRF_COOKIE,
  SIGN_IN_CSRF_MAX_AGE_SECONDS,
  SIGN_IN_PAGE,
  SignInView,
  safeReturnTo,
  signInPage,
} from './account-pages';
import {
  isSecureBase,
  readCookie,
  readSessionToken,
  setSessionCookie,
} from '../session/session-cookie';
import {
  ConnectingApp,
  SIGN_IN_PATH,
  authorizationClientId,
  connectingApp,
} from '../session/session-pages';

const CSRF_TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * The sign-in page: GET/POST /account/sign-in. Outside the API-key pipeline; cross-site
 * POSTs are refused by the global SameOriginGuard before these handlers run, and the form
 * carries a CSRF token (double submit against a short-lived cookie). When the form's
 * return_to resumes an OAuth authorization request, the page names the app asking (the
 * registered client's name, escaped like every value by the template).
 */
@ApiExcludeController()
@Public()
@Controller('account')
export class AccountSignInController {
  private readonly secure: boolean;

  constructor(
    private readonly users: UsersService,
    private readonly sessions: SessionsService,
    private readonly clients: OAuthClientsService,
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
    const token = readSessionToken(req);
    if (token && (await this.sessions.resolve(token))) {
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

  // -------------------------------------------------------------------------------------

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

  private async sendSignIn(res: Response, status: number, view: SignInView): Promise<void> {
    const page = signInPage({ ...view, connectingApp: await this.connectingApp(view.returnTo) });
    pageHeaders(res);
    return renderPage(res, status, SIGN_IN_PAGE, page);
  }

  /** The app asking, when this sign-in resumes an authorization request; else null. */
  private async connectingApp(returnTo: string | null | undefined): Promise<ConnectingApp | null> {
    const clientId = authorizationClientId(returnTo);
    if (clientId === null) return null;
    return connectingApp(await this.clients.find(clientId));
  }
}

function tooManyAttempts(retryAfter: unknown): string {
  const seconds = typeof retryAfter === 'number' && retryAfter > 0 ? retryAfter : 900;
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}
