import { DynamicModule, Global, Module, ModuleMetadata } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_CONFIG, AppConfig } from '@app/core';
import { RedisModule } from '@app/redis';
import { dataSourceOptions } from './data-source-options';
import { ReadSql } from './read-sql';
import { SQL_BULK_TIMEOUT_MS, Sql } from './sql';
import { DependencyHealth } from './dependency-health';
import { PostgresPing } from './postgres-ping';
import { ClockSkewMonitor, DatabaseClockRepository } from './clock-skew';

/**
 * The two database modules differ only in the session bounds of their connections: the
 * request path's (the API) or none (the worker and the CLIs, whose crawls, rollups and
 * maintenance nobody waits for over HTTP; docs/reliability.md, "Timeouts").
 */
function databaseModuleMetadata(requestPath: boolean): ModuleMetadata {
  return {
    imports: [typeOrmRoot(requestPath), RedisModule],
    providers: [
      Sql,
      ReadSql,
      DependencyHealth,
      PostgresPing,
      DatabaseClockRepository,
      ClockSkewMonitor,
      {
        provide: SQL_BULK_TIMEOUT_MS,
        inject: [APP_CONFIG],
        useFactory: (config: AppConfig) =>
          requestPath ? config.dbTimeouts.bulkStatementTimeoutMs : null,
      },
    ],
    exports: [
      TypeOrmModule,
      RedisModule,
      Sql,
      ReadSql,
      DependencyHealth,
      PostgresPing,
      ClockSkewMonitor,
    ],
  };
}

/** TypeORM's connection, with the request path's session bounds when `requestPath`. */
function typeOrmRoot(requestPath: boolean): DynamicModule {
  return TypeOrmModule.forRootAsync({
    inject: [APP_CONFIG],
    useFactory: (config: AppConfig) => ({
      ...dataSourceOptions(
        config.databaseUrl,
        config.dbPoolSize,
        config.dbConnectTimeoutMs,
        requestPath ? config.dbTimeouts : undefined,
      ),
      retryAttempts: 2,
      retryDelay: 500,
    }),
  });
}

/**
 * PostgreSQL (TypeORM, migrations only, never synchronize), the `Sql` helper repositories run
 * statements through, `ReadSql` for the reads a hot standby may serve, and DependencyHealth,
 * which watches PostgreSQL and Redis. Redis itself is libs/redis: RedisModule is imported for
 * DependencyHealth and exported, so that this one global module still gives every module
 * both stores. Global: connections are process-wide, like config. No statement or lock
 * bounds: the worker and the CLIs.
 */
@Global()
@Module(databaseModuleMetadata(false))
export class DatabaseModule {}

/**
 * DatabaseModule for the API: every connection carries DB_STATEMENT_TIMEOUT_MS and
 * DB_LOCK_TIMEOUT_MS, so a held lock or a runaway statement answers a clean 500 with
 * Retry-After instead of holding a pool slot; `Sql.bulkTransaction` raises both to
 * DB_BULK_STATEMENT_TIMEOUT_MS for the admin ingestion batches.
 */
@Global()
@Module(databaseModuleMetadata(true))
export class RequestDatabaseModule {}
