export * from './entities';
export * from './migrations';
export * from './data-source-options';
export * from './database.module';
export * from './redis.module';
export { runMigrations, ensureDatabase } from './cli/migrate';
export * from './sql';
export * from './upserted';
export * from './schema-drift';
