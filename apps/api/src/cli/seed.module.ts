import { Module } from '@nestjs/common';
import { CoreModule } from '@app/core';
import { DatabaseModule } from '@app/database';
import { BillingModule } from '@app/billing';
import { AccountsModule } from '@app/accounts';

/** What the demo seed needs: connections and the account services, no HTTP. */
@Module({ imports: [CoreModule, DatabaseModule, BillingModule, AccountsModule] })
export class SeedModule {}
