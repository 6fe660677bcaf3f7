import { applyDecorators, Controller, UseGuards } from '@nestjs/common';
import { ApiCookieAuth, ApiTags } from '@nestjs/swagger';
import { Public } from '@app/gateway';
import { SameOriginGuard } from './same-origin.guard';
import { SessionGuard } from './session.guard';

const ACCOUNT_API_PREFIX = 'account/v1';

/**
 * A controller of the account area: outside the API-key pipeline (@Public: not metered,
 * not throttled per plan), cross-site state changes refused (SameOriginGuard), and a valid
 * session required (SessionGuard; mark a handler @SignedOutAllowed() to let it through
 * without one). Bodies under /account/v1 are JSON only: jsonBodiesOnly() in app.setup.ts
 * answers any other body 415 before the guards.
 */
export function AccountAreaController(prefix: string = ACCOUNT_API_PREFIX): ClassDecorator {
  return applyDecorators(
    Controller(prefix),
    Public(),
    UseGuards(SameOriginGuard, SessionGuard),
    ApiTags('account'),
    ApiCookieAuth('session'),
  );
}
