import Redis from 'ioredis';
import { Client } from 'pg';

/** Removes this run's database and every Redis key under its prefix. */
export default async function globalTeardown(): Promise<void> {
  const dbName = process.env.TEST_DB_NAME;
  const server = process.env.TEST_POSTGRES_SERVER;
  if (dbName && server && process.env.KEEP_TEST_DB !== '1') {
    const admin = new Client({ connectionString: `${server}/postgres` });
    await admin.connect();
    try {
      await admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
    } finally {
      await admin.end();
    }
  }
  const prefix = process.env.REDIS_PREFIX;
  if (prefix && prefix.startsWith('seotest:')) {
    const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    try {
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
        cursor = next;
        if (keys.length) await redis.unlink(...keys);
      } while (cursor !== '0');
    } finally {
      redis.disconnect();
    }
  }
}
