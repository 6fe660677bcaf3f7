import { Module } from '@nestjs/common';
import { BillingModule } from '@app/billing';
import { AccountsRepository } from './accounts.repository';
import { AccountsService } from './accounts.service';
import { ApiKeysRepository } from './api-keys.repository';
import { ApiKeysService } from './api-keys.service';

/** Accounts and their API keys (the authentication lookup included). */
@Module({
  imports: [BillingModule],
  providers: [AccountsRepository, AccountsService, ApiKeysRepository, ApiKeysService],
  exports: [AccountsService, ApiKeysService],
})
export class AccountsModule {}
