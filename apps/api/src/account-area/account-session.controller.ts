import { Body, Delete, Get, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import type { Response } from 'express';
import { APP_CONFIG, AppConfig, ApiError } from '@app/core';
import { AccountsService, SessionContext, SessionsService, UsersService } from '@app/accounts';
import { AccountEntity } from '@app/database';
import { AccountAreaController } from '../session/account-area.decorator';
import { CurrentSession } from '../session/session.decorator';
import { AccountAreaRequest, SignedOutAllowed } from '../session/session.guard';
import {
  clearSessionCookie,
  isSecureBase,
  readSessionToken,
  setSessionCookie,
} from '../session/session-cookie';
import { ChangePasswordDto, SignInDto } from './dto/session.dto';

function profile(user: { id: number; email: string }, account: AccountEntity) {
  return {
    user: { id: user.id, email: user.email },
    account: { id: account.id, name: account.name, plan: account.plan },
  };
}

/** Sign-in, sign-out, who is signed in, password change: /account/v1 (session cookie). */
@AccountAreaController()
export class AccountSessionController {
  private readonly secure: boolean;

  constructor(
    private readonly users: UsersService,
    private readonly sessions: SessionsService,
    private readonly accounts: AccountsService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.secure = isSecureBase(config.publicBaseUrl);
  }

  @Post('session')
  @HttpCode(200)
  @SignedOutAllowed()
  @ApiOperation({ summary: 'Sign in: starts a session and sets the seo_session cookie' })
  async signIn(
    @Body() body: SignInDto,
    @Req() req: AccountAreaRequest,
    @Res({ passthrough: true }) res: Response,
  ) {
    const signedIn = await this.users.signIn(body.email, body.password, req.ip ?? '');
    // A session the browser already had is replaced, not left behind.
    const previous = readSessionToken(req);
    if (previous) await this.sessions.end(previous);
    setSessionCookie(res, signedIn.token, this.secure);
    return profile(signedIn.user, signedIn.account);
  }

  @Delete('session')
  @ApiOperation({ summary: 'Sign out: the session ends on every instance' })
  async signOut(@Req() req: AccountAreaRequest, @Res({ passthrough: true }) res: Response) {
    const token = readSessionToken(req);
    if (token) await this.sessions.end(token);
    clearSessionCookie(res, this.secure);
    return { signed_out: true };
  }

  @Get('me')
  @ApiOperation({ summary: 'The signed-in person and their account' })
  async me(@CurrentSession() session: SessionContext) {
    const account = await this.accounts.find(session.accountId);
    if (!account) throw new ApiError('UNAUTHORIZED', 'Sign in first: no valid session.');
    return profile({ id: session.userId, email: session.email }, account);
  }

  @Post('password')
  @HttpCode(200)
  @ApiOperation({ summary: 'Change the password; every other session of the user ends' })
  async changePassword(@CurrentSession() session: SessionContext, @Body() body: ChangePasswordDto) {
    await this.users.changePassword(
      session.userId,
      session.sessionId,
      body.current_password,
      body.new_password,
    );
    return { changed: true };
  }
}
