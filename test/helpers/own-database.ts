import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../libs/database/src/data-source-options';

/**
 * A migrated database of the suite's own beside the run's (`<run database>_<suffix>`), for a
 * suite that leaves rows other suites' processes must not see (e.g. secrets sealed with a
 * key those processes do not have). `drop()` removes it.
 */
export async function createOwnDatabase(
  suffix: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const server = process.env.TEST_POSTGRES_SERVER!;
  const name = `${process.env.TEST_DB_NAME!}_${suffix}`;
  const admin = async (sql: string) => {
    const c = new Client({ connectionString: `${server}/postgres` });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin(`CREATE DATABASE "${name}"`);
  const url = `${server}/${name}`;
  const ds = new DataSource(dataSourceOptions(url, 2));
  await ds.initialize();
  try {
    await ds.runMigrations({ transaction: 'each' });
  } finally {
    await ds.destroy();
  }
  return { url, drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}
