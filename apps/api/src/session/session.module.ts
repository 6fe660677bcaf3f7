import { Module } from '@nestjs/common';
import { AccountsModule } from '@app/accounts';
import { SameOriginGuard } from './same-origin.guard';
import { SessionGuard } from './session.guard';

/**
 * The guards of a signed-in person's routes (@AccountAreaController: SameOriginGuard, then
 * SessionGuard), for every folder that serves /account/v1 routes (account-area, usage,
 * webhooks).
 */
@Module({
  imports: [AccountsModule],
  providers: [SessionGuard, SameOriginGuard],
  exports: [AccountsModule, SessionGuard, SameOriginGuard],
})
export class SessionModule {}
