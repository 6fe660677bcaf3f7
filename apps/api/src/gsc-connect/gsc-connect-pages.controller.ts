import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { SessionsService } from '@app/accounts';
import { Public } from '@app/gateway';
import { SIGN_IN_PATH } from '../session/session-pages';
import { readSessionToken } from '../session/session-cookie';
import { MESSAGE_PAGE, MessagePage } from '../pages/message.view';
import { pageHeaders, redirectPage, renderPage } from '../pages/page-response';
import { GSC_CONSOLE_SECTION, GscConnectService } from './gsc-connect.service';

/** The console's words for a callback that did not connect. */
const FAILURES: Record<'state' | 'denied' | 'scope' | 'google', string> = {
  state:
    'This Google answer does not belong to a connect you started here, or it expired (10 minutes) or was used already. Nothing was connected.',
  denied: 'Google did not give access, so nothing was connected.',
  scope:
    'Search Console access was not granted (the box was unticked on Google’s page), so nothing was connected.',
  google: 'Google did not complete the connection. Nothing was connected; please try again.',
};

/**
 * The browser's steps of connecting Search Console (docs/gsc-connect.md):
 * GET /account/gsc/connect (signed in) redirects to Google's consent with a state bound to
 * the session and a PKCE challenge; GET /account/gsc/callback checks the state, connects,
 * and sends the browser to the console's Search Console section, which lists the sites to
 * pick. Not signed in: the sign-in page first.
 */
@ApiExcludeController()
@Public()
@Controller('account/gsc')
export class GscConnectPagesController {
  constructor(
    private readonly sessions: SessionsService,
    private readonly gsc: GscConnectService,
  ) {}

  @Get('connect')
  async connect(@Req() req: Request, @Res() res: Response): Promise<void> {
    const session = await this.session(req);
    if (!session) return redirectPage(res, `${SIGN_IN_PATH}?return_to=%2Faccount%2Fgsc%2Fconnect`);
    const url = await this.gsc.authorizationUrl(session.sessionId, session.accountId);
    if (!url) {
      return this.message(res, 404, {
        title: 'Google is not configured',
        message:
          'This server has no Google client (GOOGLE_CLIENT_ID), so Search Console cannot be connected. Add a sandbox property instead.',
      });
    }
    redirectPage(res, url);
  }

  @Get('callback')
  async callback(
    @Req() req: Request,
    @Res() res: Response,
    @Query() q: Record<string, unknown>,
  ): Promise<void> {
    const session = await this.session(req);
    if (!session) return redirectPage(res, SIGN_IN_PATH);
    const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
    const outcome = await this.gsc.callback(session, {
      state: str(q.state),
      code: str(q.code),
      error: str(q.error),
    });
    if (outcome.ok) {
      return redirectPage(res, `/account?gsc_connected=${outcome.connectionId}#search-console`);
    }
    return this.message(res, outcome.reason === 'google' ? 502 : 400, {
      title: 'Search Console not connected',
      message: FAILURES[outcome.reason],
    });
  }

  private async session(req: Request) {
    const token = readSessionToken(req);
    return token ? this.sessions.resolve(token) : null;
  }

  private async message(
    res: Response,
    status: number,
    page: Pick<MessagePage, 'title' | 'message'>,
  ): Promise<void> {
    pageHeaders(res);
    await renderPage(res, status, MESSAGE_PAGE, {
      ...page,
      link: GSC_CONSOLE_SECTION,
      linkText: 'Back to your account',
    });
  }
}
