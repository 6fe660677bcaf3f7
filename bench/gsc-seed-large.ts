import { loadConfig, plainDate } from '@app/core';
import { ensureDatabase, runMigrations } from '@app/database';
import { openBenchSql, seedLargeDataSet } from './gsc-large-data';

/**
 * `npm run seed:gsc-large`: 1,000,000 Search Console facts over 90 days for one property of
 * the "GSC benchmark (Agency)" account in DATABASE_URL (re-running replaces them).
 */
async function main(): Promise<void> {
  const config = loadConfig();
  await ensureDatabase(config.databaseUrl);
  await runMigrations(config.databaseUrl);
  const { sql, close } = await openBenchSql(config.databaseUrl);
  try {
    const r = await seedLargeDataSet(sql, plainDate(new Date()));
    console.log(
      `Seeded ${r.rows} GSC rows (90 days) for property ${r.propertyId} of account ${r.accountId} in ${r.seconds.toFixed(1)} s.`,
    );
  } finally {
    await close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
