import { DataSource } from 'typeorm';
import { ConfigError, loadConfig } from '@app/core';
import { dataSourceOptions } from '../data-source-options';

/** `npm run migration:run`: applies pending migrations to DATABASE_URL (idempotent). */
export async function runMigrations(url: string): Promise<string[]> {
  const ds = new DataSource(dataSourceOptions(url, 2));
  await ds.initialize();
  try {
    const applied = await ds.runMigrations({ transaction: 'each' });
    return applied.map((m) => m.name);
  } finally {
    await ds.destroy();
  }
}

/** Creates the database named in the URL when it does not exist yet. */
export async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ''));
  if (!name) return;
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const ds = new DataSource({ type: 'postgres', url: admin.toString() });
  await ds.initialize();
  try {
    const rows: unknown[] = await ds.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rows.length === 0) {
      await ds.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
    }
  } finally {
    await ds.destroy();
  }
}

if (require.main === module) {
  (async () => {
    const config = loadConfig();
    await ensureDatabase(config.databaseUrl);
    const applied = await runMigrations(config.databaseUrl);
    console.log(
      applied.length
        ? `Applied migrations: ${applied.join(', ')}`
        : 'Database schema is up to date.',
    );
  })().catch((err: unknown) => {
    console.error(
      err instanceof ConfigError
        ? err.message
        : `Migration failed: ${String((err as Error)?.message ?? err)}`,
    );
    process.exit(1);
  });
}
