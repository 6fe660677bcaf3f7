import { Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { APP_CONFIG, AppConfig, CoreModule } from '@app/core';
import { DatabaseModule } from '@app/database';
import { BillingModule } from '@app/billing';
import { AccountsModule } from '@app/accounts';
import { GatewayModule, loggerParams } from '@app/gateway';
import { HealthModule } from './health/health.module';
import { UsageModule } from './usage/usage.module';
import { AdminModule } from './admin/admin.module';

/** Public and admin HTTP API. Resource modules are listed last. */
@Module({
  imports: [
    CoreModule,
    LoggerModule.forRootAsync({ inject: [APP_CONFIG], useFactory: (c: AppConfig) => loggerParams(c) }),
    DatabaseModule,
    BillingModule,
    AccountsModule,
    GatewayModule,
    HealthModule,
    AdminModule,
    UsageModule,
  ],
})
export class ApiModule {}
