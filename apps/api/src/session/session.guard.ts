import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiError } from '@app/core';
import { SessionContext, SessionsService } from '@app/accounts';
import type { ApiRequest } from '@app/gateway';
import { readSessionToken } from '../session/session-cookie';

/** The request as the session guard leaves it. */
export interface AccountAreaRequest extends ApiRequest {
  /** The signed-in person, set by SessionGuard. */
  session?: SessionContext;
}

/** Marks a handler (or controller) of the account area as reachable without a session. */
export const SignedOutAllowed = Reflector.createDecorator<boolean>({ transform: () => true });

/**
 * The account area's sign-in check: reads the `seo_session` cookie, resolves it in
 * PostgreSQL (idle and absolute expiry; an ended session fails on every instance at once)
 * and sets `req.session`, else 401 UNAUTHORIZED. Handlers marked @SignedOutAllowed() pass
 * without one (req.session is still set when the cookie is valid).
 */
@Injectable()
export class SessionGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly sessions: SessionsService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<AccountAreaRequest>();
    const optional = this.reflector.getAllAndOverride(SignedOutAllowed, [
      context.getHandler(),
      context.getClass(),
    ]);
    const token = readSessionToken(req);
    const session = token ? await this.sessions.resolve(token) : null;
    if (session) {
      req.session = session;
      return true;
    }
    if (optional) return true;
    throw new ApiError('UNAUTHORIZED', 'Sign in first: no valid session.');
  }
}
