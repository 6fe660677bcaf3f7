import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_CONFIG, AppConfig } from '@app/core';
import { RedisModule } from '@app/redis';
import { dataSourceOptions } from './data-source-options';
import { ReadSql } from './read-sql';
import { Sql } from './sql';
import { DependencyHealth } from './dependency-health';
import { ClockSkewMonitor, DatabaseClockRepository } from './clock-skew';

/**
 * PostgreSQL (TypeORM, migrations only, never synchronize), the `Sql` helper repositories run
 * statements through, `ReadSql` for the reads a hot standby may serve, and DependencyHealth,
 * which watches PostgreSQL and Redis. Redis itself is libs/redis: RedisModule is imported for
 * DependencyHealth and exported, so that this one global module still gives every module
 * both stores. Global: connections are process-wide, like config.
 */
@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        ...dataSourceOptions(config.databaseUrl, config.dbPoolSize, config.dbConnectTimeoutMs),
        retryAttempts: 2,
        retryDelay: 500,
      }),
    }),
    RedisModule,
  ],
  providers: [Sql, ReadSql, DependencyHealth, DatabaseClockRepository, ClockSkewMonitor],
  exports: [TypeOrmModule, RedisModule, Sql, ReadSql, DependencyHealth, ClockSkewMonitor],
})
export class DatabaseModule {}
