import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../data-source-options';
import { schemaDrift } from '../schema-drift';

/**
 * CI check: migrates a fresh, throw-away database and fails when the entities and the
 * migrations disagree (prints the statements TypeORM would run to reconcile them).
 */
async function main(): Promise<void> {
  const server = process.env.SCHEMA_CHECK_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432';
  const name = `seo_schema_check_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: `${server}/postgres` });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  const ds = new DataSource(dataSourceOptions(`${server}/${name}`, 2));
  let drift: string[] = [];
  try {
    await ds.initialize();
    await ds.runMigrations({ transaction: 'each' });
    drift = await schemaDrift(ds);
  } finally {
    if (ds.isInitialized) await ds.destroy();
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  }
  if (drift.length > 0) {
    console.error(`Entities and migrations disagree; TypeORM would run:\n${drift.join(';\n')};`);
    process.exit(1);
  }
  console.log('Entities match the migrated schema.');
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
