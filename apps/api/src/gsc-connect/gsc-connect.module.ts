import { Module } from '@nestjs/common';
import { AccountsModule } from '@app/accounts';
import { GscIngestionRepository } from '@app/database';
import { GoogleModule } from '@app/providers';
import { SessionModule } from '../session/session.module';
import { AccountGscController } from './account-gsc.controller';
import { GscConnectPagesController } from './gsc-connect-pages.controller';
import { GscConnectRepository } from './gsc-connect.repository';
import { GscConnectService } from './gsc-connect.service';
import { GscOAuthStates } from './gsc-oauth-states';
import { GscTokensAtRest } from './gsc-tokens-at-rest.service';

/**
 * Connecting Google Search Console (docs/gsc-connect.md): the connect and callback pages
 * under /account/gsc and the account routes under /account/v1/gsc. The sync itself runs in
 * the worker (docs/gsc-sync.md).
 */
@Module({
  imports: [AccountsModule, SessionModule, GoogleModule],
  controllers: [AccountGscController, GscConnectPagesController],
  providers: [
    GscConnectService,
    GscConnectRepository,
    GscIngestionRepository,
    GscOAuthStates,
    GscTokensAtRest,
  ],
  exports: [GscConnectService],
})
export class GscConnectModule {}
