import { DataSourceOptions } from 'typeorm';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

/**
 * `connectTimeoutMs` bounds getting a connection (connecting, or waiting for a free pool
 * slot) so requests fail fast while PostgreSQL is unreachable (docs/reliability.md); the
 * CLIs leave it unbounded.
 */
export function dataSourceOptions(
  url: string,
  poolSize = 10,
  connectTimeoutMs?: number,
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
    },
  };
}
