import { Module } from '@nestjs/common';
import { AccountsModule } from '@app/accounts';
import { AdminModule } from '../admin/admin.module';
import { ProviderSpendController } from './provider-spend.controller';
import { ProviderSpendRepository } from './provider-spend.repository';

/** GET /admin/v1/accounts/{id}/provider-spend: the provider-spend ledger for operators. */
@Module({
  imports: [AdminModule, AccountsModule],
  controllers: [ProviderSpendController],
  providers: [ProviderSpendRepository],
})
export class ProviderSpendModule {}
