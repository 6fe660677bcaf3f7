import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AccountsModule } from '@app/accounts';
import { SiteAuditModule } from '@app/site-audit';
import { AccountSessionController } from './account-session.controller';
import { UsageModule } from '../usage/usage.module';
import { OAuthModule } from '../oauth/oauth.module';
import { GscConnectModule } from '../gsc-connect/gsc-connect.module';
import { AccountKeysController } from './account-keys.controller';
import { AccountConnectionsController } from './account-connections.controller';
import { AccountPagesController } from './account-pages.controller';
import { AccountSiteAuditsController } from './account-site-audits.controller';
import { AccountSignInController } from './account-sign-in.controller';
import { SameOriginGuard } from '../session/same-origin.guard';
import { SessionModule } from '../session/session.module';

/**
 * The account area: people signed in with a session cookie (/account/v1 JSON API, pages
 * under /account). SameOriginGuard is also registered globally, so every state-changing
 * request under /account and /oauth is checked whatever controller serves it.
 * See docs/account-sessions.md.
 */
@Module({
  imports: [
    AccountsModule,
    SessionModule,
    UsageModule,
    OAuthModule,
    SiteAuditModule,
    GscConnectModule,
  ],
  controllers: [
    AccountSessionController,
    AccountKeysController,
    AccountConnectionsController,
    AccountSignInController,
    AccountPagesController,
    AccountSiteAuditsController,
  ],
  providers: [{ provide: APP_GUARD, useClass: SameOriginGuard }],
  exports: [AccountsModule, SessionModule],
})
export class AccountAreaModule {}
