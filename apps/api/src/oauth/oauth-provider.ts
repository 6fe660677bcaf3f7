import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AccountsService, SessionContext, SessionsService } from '@app/accounts';
import {
  OAUTH_SETTINGS,
  OAuthClient,
  OAuthClientsService,
  OAuthGrantsService,
  OAuthSettings,
} from '@app/oauth';
import {
  AccessDeniedError,
  InvalidRequestError,
  InvalidTokenError,
} from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import type {
  AuthorizationParams,
  OAuthServerProvider,
} from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type {
  OAuthClientInformationFull,
  OAuthTokenRevocationRequest,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { readSessionToken } from '../session/session-cookie';
import { SIGN_IN_PATH } from '../session/session-pages';
import { sessionCsrfToken } from '../pages/csrf';
import { pageHeaders, redirectPage, renderPage } from '../pages/page-response';
import {
  CONSENT_PAGE,
  ConsentRequest,
  HAND_BACK_PAGE,
  consentPage,
  handBackPage,
  noApiAccessReason,
} from './oauth-pages';
import { PKCE_CHALLENGE, authorizationRedirect, consentPageCsp } from './oauth-http';

/**
 * Our storage and pages behind the MCP SDK's OAuth handlers (authorize, token, register,
 * revoke): the SDK parses and validates the protocol messages, checks PKCE S256 and answers
 * with RFC 6749 errors; this provider keeps clients, grants, codes and tokens in PostgreSQL
 * (libs/oauth) and shows the sign-in and consent pages.
 */
@Injectable()
export class McpOAuthProvider implements OAuthServerProvider {
  readonly clientsStore: OAuthRegisteredClientsStore;

  constructor(
    private readonly clients: OAuthClientsService,
    private readonly grants: OAuthGrantsService,
    private readonly sessions: SessionsService,
    private readonly accounts: AccountsService,
    @Inject(OAUTH_SETTINGS) private readonly settings: OAuthSettings,
  ) {
    this.clientsStore = {
      getClient: (clientId) => this.clients.find(clientId),
      registerClient: async (metadata) => {
        const client = await this.clients.register(metadata as unknown as Record<string, unknown>);
        const { pk, ...answer } = client; // our row id stays inside
        void pk;
        return answer;
      },
    };
  }

  /**
   * The authorization request passed the SDK's checks (known client, registered redirect
   * URI, response_type=code, S256 challenge). Not signed in: the sign-in form, which returns
   * here. Signed in: the consent page, or access_denied for a plan without API access.
   */
  async authorize(
    client: OAuthClientInformationFull,
    params: AuthorizationParams,
    res: Response,
  ): Promise<void> {
    // A challenge the consent form's approval would refuse is refused here, before sign-in
    // and consent: the SDK sends the error to the redirect_uri (with state; iss is added).
    if (!PKCE_CHALLENGE.test(params.codeChallenge)) {
      throw new InvalidRequestError(
        'code_challenge must be 43 to 128 characters of A-Z, a-z, 0-9, - and _ (RFC 7636).',
      );
    }
    this.grants.checkResource(params.resource);
    const scopes = this.grants.resolveScopes(params.scopes);
    const req = res.req as Request;
    const signedIn = await this.currentSession(req);
    if (!signedIn) {
      signInFirst(req, res);
      return;
    }
    const account = await this.accounts.find(signedIn.session.accountId);
    if (!account) {
      throw new AccessDeniedError(
        'This account’s plan has no API access: connecting apps needs the Pro or Agency plan.',
      );
    }
    if (!this.grants.planAllows(account.plan)) {
      await this.refuseNoApiAccess(res, client, params, account);
      return;
    }
    await this.showConsent(res, client, params, scopes, signedIn, account);
  }

  /**
   * Our page says why, then a link hands access_denied back (issue 36): this response is
   * often in the redirect chain of the sign-in form's post, where a redirect to the app is
   * blocked by that page's CSP (form-action 'self').
   */
  private async refuseNoApiAccess(
    res: Response,
    client: OAuthClientInformationFull,
    params: AuthorizationParams,
    account: { name: string; plan: string },
  ): Promise<void> {
    await this.handBack(res, 403, {
      heading: 'This account cannot connect apps',
      reason: noApiAccessReason(account.name, account.plan),
      clientName: client.client_name ?? client.client_id,
      redirectUri: params.redirectUri,
      returnUrl: authorizationRedirect(
        params.redirectUri,
        {
          error: 'access_denied',
          error_description:
            'This account’s plan has no API access: connecting apps needs the Pro or Agency plan.',
          state: params.state,
        },
        this.settings.issuer,
      ),
    });
  }

  /** The consent page for this request, its form carrying the request to approve or deny. */
  private async showConsent(
    res: Response,
    client: OAuthClientInformationFull,
    params: AuthorizationParams,
    scopes: string[],
    { session, token }: { session: SessionContext; token: string },
    account: { name: string; plan: string },
  ): Promise<void> {
    const request: ConsentRequest = {
      client_id: client.client_id,
      redirect_uri: params.redirectUri,
      state: params.state,
      code_challenge: params.codeChallenge,
      code_challenge_method: 'S256',
      scope: scopes.join(' '),
      resource: params.resource?.href,
    };
    pageHeaders(res, consentPageCsp(params.redirectUri));
    await renderPage(
      res,
      200,
      CONSENT_PAGE,
      consentPage({
        csrfToken: sessionCsrfToken(token),
        email: session.email,
        accountName: account.name,
        plan: account.plan,
        clientName: client.client_name ?? client.client_id,
        clientId: client.client_id,
        clientVerifiedByUrl: client.client_id.startsWith('https://'),
        redirectUri: params.redirectUri,
        scopes,
        request,
      }),
    );
  }

  /** After the consent form: a code for an approval, access_denied otherwise. */
  async decide(
    session: SessionContext,
    client: OAuthClient,
    request: ConsentRequest,
    approve: boolean,
  ): Promise<string> {
    const account = await this.accounts.find(session.accountId);
    if (!approve || !account || !this.grants.planAllows(account.plan)) {
      return authorizationRedirect(
        request.redirect_uri,
        {
          error: 'access_denied',
          error_description: !approve
            ? 'The person denied the request.'
            : 'This account’s plan has no API access.',
          state: request.state,
        },
        this.settings.issuer,
      );
    }
    this.grants.checkResource(request.resource);
    const code = await this.grants.approve({
      userId: session.userId,
      accountId: session.accountId,
      client,
      scopes: this.grants.resolveScopes(request.scope.split(' ')),
      codeChallenge: request.code_challenge,
      redirectUri: request.redirect_uri,
    });
    return authorizationRedirect(
      request.redirect_uri,
      { code, state: request.state },
      this.settings.issuer,
    );
  }

  challengeForAuthorizationCode(
    client: OAuthClientInformationFull,
    authorizationCode: string,
  ): Promise<string> {
    return this.grants.challengeFor(client as OAuthClient, authorizationCode);
  }

  exchangeAuthorizationCode(
    client: OAuthClientInformationFull,
    authorizationCode: string,
    _codeVerifier?: string,
    redirectUri?: string,
    resource?: URL,
  ): Promise<OAuthTokens> {
    return this.grants.exchangeCode(
      client as OAuthClient,
      authorizationCode,
      redirectUri,
      resource,
    );
  }

  exchangeRefreshToken(
    client: OAuthClientInformationFull,
    refreshToken: string,
    scopes?: string[],
    resource?: URL,
  ): Promise<OAuthTokens> {
    return this.grants.refresh(client as OAuthClient, refreshToken, scopes, resource);
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const caller = await this.grants.authenticate(token);
    if (!caller) throw new InvalidTokenError('The access token is invalid or expired.');
    return {
      token,
      clientId: caller.clientId,
      scopes: caller.scopes,
      resource: new URL(this.settings.resource),
      extra: { accountId: caller.auth.accountId, grantId: caller.grantId },
    };
  }

  async revokeToken(
    client: OAuthClientInformationFull,
    request: OAuthTokenRevocationRequest,
  ): Promise<void> {
    await this.grants.revoke(client as OAuthClient, request.token);
  }

  /**
   * A refusal as our page (the reason, and a link handing the error response back to the
   * app) instead of a redirect: see handBackPage.
   */
  async handBack(
    res: Response,
    status: number,
    page: Parameters<typeof handBackPage>[0],
  ): Promise<void> {
    pageHeaders(res);
    await renderPage(res, status, HAND_BACK_PAGE, handBackPage(page));
  }

  async currentSession(req: Request): Promise<{ session: SessionContext; token: string } | null> {
    const token = readSessionToken(req);
    if (!token) return null;
    const session = await this.sessions.resolve(token);
    return session ? { session, token } : null;
  }
}

/** Not signed in: the sign-in form, returning to this request (a POSTed one as its GET equivalent). */
function signInFirst(req: Request, res: Response): void {
  const original =
    req.method === 'POST'
      ? `${req.originalUrl.split('?')[0]}?${new URLSearchParams(req.body as Record<string, string>).toString()}`
      : req.originalUrl;
  redirectPage(res, `${SIGN_IN_PATH}?return_to=${encodeURIComponent(original)}`);
}
