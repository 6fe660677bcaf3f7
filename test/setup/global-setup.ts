import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../libs/database/src/data-source-options';

/**
 * Each test run gets its own database and Redis key prefix, removed by global-teardown,
 * so runs never see each other's data. Test workers inherit these variables.
 */
export default async function globalSetup(): Promise<void> {
  const runId = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const server = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432';
  const dbName = `seo_test_${runId}`;
  const admin = new Client({ connectionString: `${server}/postgres` });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${dbName}"`);
  } finally {
    await admin.end();
  }
  const url = `${server}/${dbName}`;
  const ds = new DataSource(dataSourceOptions(url, 2));
  await ds.initialize();
  await ds.runMigrations({ transaction: 'each' });
  await ds.destroy();

  Object.assign(process.env, {
    TEST_DB_NAME: dbName,
    TEST_POSTGRES_SERVER: server,
    DATABASE_URL: url,
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    REDIS_PREFIX: `seotest:${runId}`,
    ADMIN_TOKEN: 'test-admin-token-0123456789abcdef',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    SEO_DATA_PROVIDER: 'sandbox',
    DATAFORSEO_LOGIN: '',
    DATAFORSEO_PASSWORD: '',
    PUBLIC_BASE_URL: 'http://localhost:3000',
    // Rank collection claims every due keyword of its database and takes the jobs of the
    // run's shared queue prefix: only the suites that test it turn it on (with their own).
    RANK_COLLECTION_ENABLED: 'false',
    // The Search Console sync likewise claims every due property: off unless a suite tests it.
    GSC_SYNC_ENABLED: 'false',
  });
}
