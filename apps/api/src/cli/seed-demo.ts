import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { NestFactory } from '@nestjs/core';
import { INestApplicationContext } from '@nestjs/common';
import { ConfigError } from '@app/core';
import { AccountsService, ApiKeysService, UsersService } from '@app/accounts';
import { CreditsService } from '@app/billing';
import { SeedModule } from './seed.module';
import { seedDemoData } from './demo-data';
import { seedDemoSampleTargets } from './demo-samples';
import { DEMO_ACCOUNT_NAME } from '../ops/demo-sample-targets';

const DEMO_USER_EMAIL = 'demo@example.com';

interface DemoSeedResult {
  accountId: number;
  key: string;
  user: { email: string; password: string };
}

/**
 * The demo account's person, with a new random password each run (only its hash is
 * stored, so the old one cannot be shown again): an existing demo user is replaced, which
 * also ends its sessions.
 */
async function seedDemoUser(
  app: INestApplicationContext,
  accountId: number,
): Promise<{ email: string; password: string }> {
  const users = app.get(UsersService);
  const existing = (await users.list(accountId)).find(
    (u) => u.email.toLowerCase() === DEMO_USER_EMAIL,
  );
  if (existing) await users.remove(existing.id);
  const password = randomBytes(15).toString('base64url');
  await users.create(accountId, DEMO_USER_EMAIL, password);
  return { email: DEMO_USER_EMAIL, password };
}

/** The label of the key `npm start` prints (with its creation time after it). */
const DEMO_KEY_LABEL_PREFIX = 'demo ';

/**
 * Creates (or reuses) the demo Pro account and issues a new key for it (keys are stored
 * only as hashes, so an old one cannot be shown again). The demo key has one slot: the key a
 * previous run printed is revoked, so the account keeps one active demo key however often
 * `npm start` runs (keys made in the account area or by operators are left alone). The demo
 * account gets a higher monthly call allowance (1,000 instead of Pro's 20) and some credits so
 * it can be explored; the rows the samples of /docs name are made too (demo-samples.ts).
 */
export async function seedDemo(app: INestApplicationContext): Promise<DemoSeedResult> {
  const accounts = app.get(AccountsService);
  let account = await accounts.findByName(DEMO_ACCOUNT_NAME);
  if (!account) {
    account = await accounts.create(DEMO_ACCOUNT_NAME, 'pro');
    await accounts.update(account.id, { overrides: { api_calls_per_month: 1000 } });
    await app.get(CreditsService).change(account.id, 25, 'demo seed', null);
  }
  await seedDemoData(app, account.id);
  // What the samples of /docs name on this deployment (docs/api-reference.md).
  await seedDemoSampleTargets(app, account.id);
  const keys = app.get(ApiKeysService);
  for (const old of await keys.list(account.id)) {
    if (!old.revokedAt && old.label.startsWith(DEMO_KEY_LABEL_PREFIX)) {
      await keys.revoke(old.id, account.id);
    }
  }
  const key = await keys.create(
    account.id,
    `${DEMO_KEY_LABEL_PREFIX}${new Date().toISOString().slice(0, 19)}`,
  );
  const user = await seedDemoUser(app, account.id);
  return { accountId: account.id, key: key.key, user };
}

if (require.main === module) {
  (async () => {
    const app = await NestFactory.createApplicationContext(SeedModule, {
      logger: ['error', 'warn'],
    });
    try {
      const result = await seedDemo(app);
      console.log(`Demo account ${result.accountId} (Pro). API key (shown once):`);
      console.log(`DEMO_API_KEY=${result.key}`);
      console.log(`Demo user for the account area (password shown once):`);
      console.log(`DEMO_USER_EMAIL=${result.user.email}`);
      console.log(`DEMO_USER_PASSWORD=${result.user.password}`);
    } finally {
      await app.close();
    }
  })().catch((err: unknown) => {
    console.error(
      err instanceof ConfigError
        ? err.message
        : `Seeding failed: ${(err as Error)?.stack ?? String(err)}`,
    );
    process.exit(1);
  });
}
