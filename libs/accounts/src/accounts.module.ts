import { Global, Module } from '@nestjs/common';
import { AccountsService } from './accounts.service';
import { ApiKeysService } from './api-keys.service';

@Global()
@Module({
  providers: [AccountsService, ApiKeysService],
  exports: [AccountsService, ApiKeysService],
})
export class AccountsModule {}
