import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AccountsModule } from '@app/accounts';
import { SiteAuditModule } from '@app/site-audit';
import { AccountSessionController } from './account-session.controller';
import { UsageModule } from '../usage/usage.module';
import { OAuthModule } from '../oauth/oauth.module';
import { AccountKeysController } from './account-keys.controller';
import { AccountUsageController } from './account-usage.controller';
import { AccountConnectionsController } from './account-connections.controller';
import { AccountPagesController } from './account-pages.controller';
import { AccountSignInController } from './account-sign-in.controller';
import { SameOriginGuard } from './same-origin.guard';
import { SessionGuard } from './session.guard';

/**
 * The account area: people signed in with a session cookie (/account/v1 JSON API, pages
 * under /account). SameOriginGuard is also registered globally, so every state-changing
 * request under /account and /oauth is checked whatever controller serves it.
 * See docs/account-sessions.md.
 */
@Module({
  imports: [AccountsModule, UsageModule, OAuthModule, SiteAuditModule],
  controllers: [
    AccountSessionController,
    AccountKeysController,
    AccountUsageController,
    AccountConnectionsController,
    AccountSignInController,
    AccountPagesController,
  ],
  providers: [SessionGuard, SameOriginGuard, { provide: APP_GUARD, useClass: SameOriginGuard }],
  exports: [AccountsModule, SessionGuard, SameOriginGuard],
})
export class AccountAreaModule {}
