import { Module } from '@nestjs/common';
import { AccountsRepository } from './accounts.repository';
import { AccountsService } from './accounts.service';
import { ApiKeysRepository } from './api-keys.repository';
import { ApiKeysService } from './api-keys.service';
import { ApiKeyCache } from './api-key-cache';
import { KeyCacheInvalidation } from './key-cache-invalidation';
import { SessionsRepository } from './sessions.repository';
import { SessionsService } from './sessions.service';
import { SignInThrottle } from './sign-in-throttle';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';

/** Accounts, their API keys (the authentication lookup included), users and sessions. */
@Module({
  providers: [
    AccountsRepository,
    AccountsService,
    ApiKeysRepository,
    ApiKeysService,
    ApiKeyCache,
    KeyCacheInvalidation,
    UsersRepository,
    UsersService,
    SessionsRepository,
    SessionsService,
    SignInThrottle,
  ],
  exports: [AccountsService, ApiKeysService, UsersService, SessionsService, KeyCacheInvalidation],
})
export class AccountsModule {}
