import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ConfigError, CoreModule } from '@app/core';
import { DatabaseModule } from '@app/database';
import { WebhookSecretsService, WebhooksRepository } from '@app/webhooks';

/** Only what re-encryption needs: config, PostgreSQL, the secrets' service and statements. */
@Module({
  imports: [CoreModule, DatabaseModule],
  providers: [WebhooksRepository, WebhookSecretsService],
})
class RotateSecretsModule {}

/**
 * `npm run secrets:rotate`: re-encrypts every stored webhook signing secret under
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
