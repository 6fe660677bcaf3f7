import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_CONFIG, AppConfig } from '@app/core';
import { dataSourceOptions } from './data-source-options';
import { RedisModule } from './redis.module';

/** PostgreSQL (TypeORM, migrations only, never synchronize) and Redis connections. */
@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        ...dataSourceOptions(config.databaseUrl, config.dbPoolSize),
        retryAttempts: 2,
        retryDelay: 500,
      }),
    }),
    RedisModule,
  ],
  exports: [TypeOrmModule, RedisModule],
})
export class DatabaseModule {}
