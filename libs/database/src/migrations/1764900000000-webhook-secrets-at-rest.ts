import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhook signing secrets encrypted at rest (docs/webhooks.md, "Secrets at rest"): the value
 * may now also be sealed (`enc:v1:<key id>:<iv>:<tag>:<ciphertext>`). Existing rows stay as
 * they are and keep working; `npm run secrets:rotate` seals them.
 */
export class WebhookSecretsAtRest1764900000000 implements MigrationInterface {
  name = 'WebhookSecretsAtRest1764900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_secrets DROP CONSTRAINT webhook_secrets_secret_check`);
    // The same expression as WEBHOOK_SECRET_CHECK of the entity, as of this migration.
    await q.query(
      `ALTER TABLE webhook_secrets ADD CONSTRAINT webhook_secrets_secret_check CHECK (secret ~ '^(whsec_[A-Za-z0-9+/=]{40,100}|enc:v1:[0-9a-f]{8}:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]{22}:[A-Za-z0-9_-]{40,200})$')`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_secrets DROP CONSTRAINT webhook_secrets_secret_check`);
    await q.query(
      `ALTER TABLE webhook_secrets ADD CONSTRAINT webhook_secrets_secret_check CHECK (secret ~ '^whsec_[A-Za-z0-9+/=]{40,100}$')`,
    );
  }
}
