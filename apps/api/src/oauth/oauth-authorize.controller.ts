import { Controller, Get, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, RequestHandler, Response } from 'express';
import { SessionContext } from '@app/accounts';
import { Public } from '@app/gateway';
import {
  OAUTH_SETTINGS,
  OAuthClient,
  OAuthClientsService,
  OAuthSettings,
  redirectUriMatches,
} from '@app/oauth';
import { authorizationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/authorize.js';
import { OAuthError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { readSessionToken } from '../session/session-cookie';
import { SIGN_IN_PATH } from '../session/session-pages';
import { CSRF_FIELD, sessionCsrfToken, tokensMatch } from '../pages/csrf';
import { MESSAGE_PAGE, MessagePage } from '../pages/message.view';
import { pageHeaders, readForm, redirectPage, renderPage } from '../pages/page-response';
import { McpOAuthProvider } from './oauth-provider';
import { AUTHORIZE_ERROR_PAGE, ConsentRequest, authorizeErrorPage } from './oauth-pages';
import {
  PKCE_CHALLENGE,
  authorizationRedirect,
  interceptRedirects,
  runSdkRouter,
} from './oauth-http';

/**
 * The authorization endpoint (GET/POST /oauth/authorize, the SDK's handler on our provider)
 * and the consent form's target (POST /oauth/authorize/decision). Requests that cannot be
 * sent back to the client (unknown client, unregistered redirect_uri) get an error page and
 * no redirect; the SDK sends every other error to the redirect_uri. Cross-site POSTs are
 * refused by the global SameOriginGuard; the consent form carries the session's CSRF token.
 */
@ApiExcludeController()
@Public()
@Controller('oauth/authorize')
export class OAuthAuthorizeController {
  private readonly handler: RequestHandler;

  constructor(
    private readonly provider: McpOAuthProvider,
    private readonly clients: OAuthClientsService,
    @Inject(OAUTH_SETTINGS) private readonly settings: OAuthSettings,
  ) {
    this.handler = authorizationHandler({ provider, rateLimit: false });
  }

  @Get()
  authorizeGet(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.authorize(req, res, req.query as Record<string, unknown>);
  }

  @Post()
  async authorizePost(@Req() req: Request, @Res() res: Response): Promise<void> {
    const form = await readForm(req);
    if (form === null) return this.errorPage(res, 'The request was too large.', 413);
    req.body = Object.fromEntries(form.entries());
    // The body is read: the SDK router's own parser must not wait for it again.
    (req as Request & { _body?: boolean })._body = true;
    return this.authorize(req, res, req.body as Record<string, unknown>);
  }

  @Post('decision')
  async decision(@Req() req: Request, @Res() res: Response): Promise<void> {
    const form = await readForm(req);
    if (form === null) return this.errorPage(res, 'The form sent too much data.', 413);
    const signedIn = await this.provider.currentSession(req);
    if (!signedIn) return signedOutPage(res);
    if (!tokensMatch(form.get(CSRF_FIELD), sessionCsrfToken(signedIn.token))) {
      return this.errorPage(
        res,
        'This consent form expired or was not sent from this site, so nothing was shared.',
        403,
      );
    }
    const found = await this.clientAndRedirect(form.get('client_id'), form.get('redirect_uri'));
    if (typeof found === 'string') return this.errorPage(res, found);
    const decision = form.get('decision');
    const challenge = form.get('code_challenge') ?? '';
    if (decision !== 'approve' && decision !== 'deny') {
      return this.errorPage(res, 'The consent form was incomplete.');
    }
    if (form.get('code_challenge_method') !== 'S256' || !PKCE_CHALLENGE.test(challenge)) {
      // The client and its redirect_uri are known: the app is told, as at the authorization
      // request (which already refuses such a challenge before showing this form).
      redirectPage(res, this.refusedChallenge(found.redirectUri, form.get('state') ?? undefined));
      return;
    }
    const request: ConsentRequest = {
      client_id: found.client.client_id,
      redirect_uri: found.redirectUri,
      state: form.get('state') ?? undefined,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      scope: form.get('scope') ?? '',
      resource: form.get('resource') || undefined,
    };
    const approve = decision === 'approve';
    redirectPage(res, await this.decisionRedirect(signedIn.session, found, request, approve));
  }

  /** The app's redirect with invalid_request for a challenge that is not S256. */
  private refusedChallenge(redirectUri: string, state: string | undefined): string {
    return authorizationRedirect(
      redirectUri,
      {
        error: 'invalid_request',
        error_description:
          'code_challenge must be an S256 challenge: 43 to 128 characters of A-Z, a-z, 0-9, - and _.',
        state,
      },
      this.settings.issuer,
    );
  }

  /** The app's redirect after the decision: the code (or access_denied), or the OAuth error. */
  private async decisionRedirect(
    session: SessionContext,
    found: { client: OAuthClient; redirectUri: string },
    request: ConsentRequest,
    approve: boolean,
  ): Promise<string> {
    try {
      return await this.provider.decide(session, found.client, request, approve);
    } catch (err) {
      if (!(err instanceof OAuthError)) throw err;
      return authorizationRedirect(
        found.redirectUri,
        { error: err.errorCode, error_description: err.message, state: request.state },
        this.settings.issuer,
      );
    }
  }

  private async authorize(
    req: Request,
    res: Response,
    params: Record<string, unknown>,
  ): Promise<void> {
    // What cannot go back to the client is answered here, as a page (the SDK would answer JSON).
    const found = await this.clientAndRedirect(params.client_id, params.redirect_uri);
    if (typeof found === 'string') return this.errorPage(res, found);
    if (readSessionToken(req) !== null) this.explainRefusals(res, found);
    await runSdkRouter(this.handler, req, res, {
      issuer: this.settings.issuer,
      state: typeof params.state === 'string' ? params.state : undefined,
    });
  }

  /**
   * For a person signed in (this request may be in the redirect chain of the sign-in form's
   * post, whose CSP blocks a redirect to the app): an error the SDK would redirect to the app
   * becomes our page with its reason and a link handing the same error response back (issue
   * 36). The SDK calls res.redirect only for those errors (ours go through redirectPage).
   */
  private explainRefusals(
    res: Response,
    { client, redirectUri }: { client: OAuthClient; redirectUri: string },
  ): void {
    interceptRedirects(res, (status, target, redirect) => {
      let url: URL;
      try {
        url = new URL(target);
      } catch {
        return redirect(status, target);
      }
      const error = url.searchParams.get('error');
      if (error === null) return redirect(status, target);
      const description = url.searchParams.get('error_description');
      this.provider
        .handBack(res, 400, {
          heading: 'The app’s request was refused',
          reason: `The request from this app cannot be completed (${error}${description ? `: ${description}` : ''}).`,
          clientName: client.client_name ?? client.client_id,
          redirectUri,
          returnUrl: target,
        })
        .catch(() => {
          if (!res.headersSent) res.status(500).end();
        });
    });
  }

  /** The client and the redirect URI to use, or why the request cannot be sent back. */
  private async clientAndRedirect(
    clientId: unknown,
    redirectUri: unknown,
  ): Promise<{ client: OAuthClient; redirectUri: string } | string> {
    if (typeof clientId !== 'string' || clientId === '')
      return 'The request names no app (client_id).';
    const client = await this.clients.find(clientId);
    if (!client) return 'The app that sent you here is not known to us (unknown client_id).';
    if (redirectUri === undefined || redirectUri === null || redirectUri === '') {
      if (client.redirect_uris.length === 1)
        return { client, redirectUri: client.redirect_uris[0] };
      return 'The request does not say where to return (redirect_uri).';
    }
    if (
      typeof redirectUri !== 'string' ||
      !client.redirect_uris.some((registered) => redirectUriMatches(redirectUri, registered))
    ) {
      return 'The address this request would return you to is not registered for this app (redirect_uri).';
    }
    return { client, redirectUri };
  }

  private errorPage(res: Response, message: string, status = 400): Promise<void> {
    pageHeaders(res);
    return renderPage(res, status, AUTHORIZE_ERROR_PAGE, authorizeErrorPage(message));
  }
}

/** The consent form came back without a session: nothing was shared. */
async function signedOutPage(res: Response): Promise<void> {
  const page: MessagePage = {
    title: 'Signed out',
    message:
      'You are no longer signed in, so nothing was shared. Start the connection again from the app.',
    link: SIGN_IN_PATH,
    linkText: 'Sign in',
  };
  pageHeaders(res);
  await renderPage(res, 401, MESSAGE_PAGE, page);
}
