import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { SessionContext } from '@app/accounts';
import type { AccountAreaRequest } from './session.guard';

/** The signed-in person (only on routes behind SessionGuard). */
export const CurrentSession = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): SessionContext => {
    const req = ctx.switchToHttp().getRequest<AccountAreaRequest>();
    if (!req.session) throw new Error('CurrentSession used on a route without SessionGuard');
    return req.session;
  },
);
