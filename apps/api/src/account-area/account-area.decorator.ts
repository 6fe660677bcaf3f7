import { applyDecorators, Controller, UseGuards } from '@nestjs/common';
import { ApiCookieAuth, ApiTags } from '@nestjs/swagger';
import { Public } from '@app/gateway';
import { JsonBodyGuard } from './json-body.guard';
import { SameOriginGuard } from './same-origin.guard';
import { SessionGuard } from './session.guard';

export const ACCOUNT_API_PREFIX = 'account/v1';

/**
 * A controller of the account area: outside the API-key pipeline (@Public: not metered,
 * not throttled per plan), cross-site state changes refused (SameOriginGuard), JSON bodies
 * only under /account/v1 (JsonBodyGuard), and a valid session required (SessionGuard; mark
 * a handler @SignedOutAllowed() to let it through without one).
 */
export function AccountAreaController(prefix: string = ACCOUNT_API_PREFIX): ClassDecorator {
  return applyDecorators(
    Controller(prefix),
    Public(),
    UseGuards(SameOriginGuard, JsonBodyGuard, SessionGuard),
    ApiTags('account'),
    ApiCookieAuth('session'),
  );
}
