import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { APP_CONFIG, ConfigError, CoreModule } from '@app/core';
import { DatabaseModule } from '@app/database';
import { WebhookSecretsService, WebhooksRepository } from '@app/webhooks';
import { GscRefreshTokens } from '@app/providers';
import { GscConnectRepository } from '../gsc-connect/gsc-connect.repository';
import { GscTokensAtRest } from '../gsc-connect/gsc-tokens-at-rest.service';

/** Only what re-encryption needs: config, PostgreSQL, the secrets' services and statements. */
@Module({
  imports: [CoreModule, DatabaseModule],
  providers: [
    WebhooksRepository,
    WebhookSecretsService,
    GscConnectRepository,
    GscTokensAtRest,
    { provide: GscRefreshTokens, inject: [APP_CONFIG], useFactory: GscRefreshTokens.fromConfig },
  ],
})
class RotateSecretsModule {}

/**
 * `npm run secrets:rotate`: re-encrypts every stored webhook signing secret and Google refresh
 * token (docs/gsc-connect.md) under
 * SECRETS_ENCRYPTION_KEY — rows stored as they are (before encryption, or without a key) and
 * rows sealed with an older key, which must still be listed in SECRETS_ENCRYPTION_KEYS_OLD.
 * Batches of 500, idempotent, safe while the service runs (a row rotated meanwhile is left
 * for the next run). Prints counts only, never a secret. docs/webhooks.md, "Secrets at rest".
 */
async function main(): Promise<void> {
  const app = await NestFactory.createApplicationContext(RotateSecretsModule, {
    logger: ['error', 'warn'],
  });
  try {
    const result = await app.get(WebhookSecretsService).reencryptAll();
    console.log(
      `Webhook secrets: ${result.reencrypted} re-encrypted under the current key, ${result.skipped} changed meanwhile (run again)`,
    );
    const gsc = await app.get(GscTokensAtRest).reencryptAll();
    console.log(
      `Google refresh tokens: ${gsc.reencrypted} re-encrypted under the current key, ${gsc.skipped} changed meanwhile (run again)`,
    );
  } finally {
    await app.close();
  }
}

main().catch((err: unknown) => {
  console.error(
    err instanceof ConfigError
      ? err.message
      : `Secret rotation failed: ${(err as Error)?.message ?? String(err)}`,
  );
  process.exit(1);
});
