import { Module } from '@nestjs/common';
import { AccountsModule } from '@app/accounts';
import { AdminRoutesModule } from '../admin-routes/admin-routes.module';
import { ProviderSpendController } from './provider-spend.controller';
import { ProviderSpendRepository } from './provider-spend.repository';

/** GET /admin/v1/accounts/{id}/provider-spend: the provider-spend ledger for operators. */
@Module({
  imports: [AdminRoutesModule, AccountsModule],
  controllers: [ProviderSpendController],
  providers: [ProviderSpendRepository],
})
export class ProviderSpendModule {}
