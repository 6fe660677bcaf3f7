import { DataSourceOptions } from 'typeorm';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

/** Session bounds of every connection of a pool (PostgreSQL's own settings, in ms). */
export interface SessionTimeouts {
  /** `statement_timeout`: a statement running longer is cancelled (SQLSTATE 57014). */
  statementTimeoutMs: number;
  /** `lock_timeout`: a wait for a lock longer than this fails (SQLSTATE 55P03). */
  lockTimeoutMs: number;
}

/**
 * `connectTimeoutMs` bounds getting a connection (connecting, or waiting for a free pool
 * slot) so requests fail fast while PostgreSQL is unreachable (docs/reliability.md); the
 * CLIs leave it unbounded. `timeouts` are sent as the connections' start-up parameters, so
 * they bind every statement on them, prepared ones included (the API's request path: the
 * worker and the CLIs pass none; docs/reliability.md, "Timeouts").
 */
export function dataSourceOptions(
  url: string,
  poolSize = 10,
  connectTimeoutMs?: number,
  timeouts?: SessionTimeouts,
): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: 'schema_migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    logging: false,
    extra: {
      max: poolSize,
      application_name: 'seo-api',
      ...(connectTimeoutMs ? { connectionTimeoutMillis: connectTimeoutMs } : {}),
      ...(timeouts
        ? { statement_timeout: timeouts.statementTimeoutMs, lock_timeout: timeouts.lockTimeoutMs }
        : {}),
    },
  };
}
