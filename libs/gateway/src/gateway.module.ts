import { InputWarningsGuard } from './input-warnings';
import { DynamicModule, Module, ModuleMetadata, Type } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import Redis from 'ioredis';
import { APP_CONFIG, AppConfig } from '@app/core';
import { AccountsModule } from '@app/accounts';
import { BillingModule } from '@app/billing';
import { REDIS, RedisKeys } from '@app/redis';
import { AuthGuard } from './auth.guard';
import { PlanGuard } from './plan.guard';
import { RateLimitGuard, perMinuteLimit } from './rate-limit.guard';
import { RedisThrottlerStorage } from './redis-throttler.storage';
import { MeteringGuard } from './metering.guard';
import { IdempotencyGuard } from './idempotency.guard';
import { IdempotencyKeysRepository } from '@app/database';
import { ApiExceptionFilter } from './exception.filter';
import { ApiValidationPipe } from './validation';
import { UsageAlertsHook } from './usage-line';

/** What the app gives the pipeline: the usage feature's alert check, and the module it is in. */
export interface GatewayOptions {
  usageAlerts?: { imports: ModuleMetadata['imports']; hook: Type<UsageAlertsHook> };
}

/**
 * The request pipeline every public route goes through, in this order:
 * AuthGuard (401) → PlanGuard (403) → RateLimitGuard (429 per minute) → MeteringGuard
 * (monthly meter, 429) → IdempotencyGuard (POST with Idempotency-Key: claim, 409, 422, or
 * the kept answer again) → ApiValidationPipe (422) → handler → success envelope
 * (EnvelopeExpressAdapter, where the reply is written); any error → ApiExceptionFilter.
 * `register` wires the usage feature's alert check into MeteringGuard (UsageAlertsHook).
 */
@Module({
  imports: [
    AccountsModule,
    BillingModule,
    ThrottlerModule.forRootAsync({
      inject: [APP_CONFIG, REDIS, RedisKeys],
      useFactory: (config: AppConfig, redis: Redis, keys: RedisKeys) => ({
        throttlers: [
          { name: 'default', ttl: config.rateLimitWindowSeconds * 1000, limit: perMinuteLimit },
        ],
        storage: new RedisThrottlerStorage(redis, keys),
      }),
    }),
  ],
  providers: [
    { provide: APP_GUARD, useClass: AuthGuard },
    { provide: APP_GUARD, useClass: PlanGuard },
    { provide: APP_GUARD, useClass: RateLimitGuard },
    { provide: APP_GUARD, useClass: MeteringGuard },
    { provide: APP_GUARD, useClass: InputWarningsGuard },
    { provide: APP_GUARD, useClass: IdempotencyGuard },
    IdempotencyKeysRepository,
    { provide: APP_FILTER, useClass: ApiExceptionFilter },
    { provide: APP_PIPE, useClass: ApiValidationPipe },
  ],
})
export class GatewayModule {
  static register(options: GatewayOptions = {}): DynamicModule {
    const alerts = options.usageAlerts;
    return {
      module: GatewayModule,
      imports: alerts?.imports ?? [],
      providers: alerts ? [{ provide: UsageAlertsHook, useExisting: alerts.hook }] : [],
    };
  }
}
