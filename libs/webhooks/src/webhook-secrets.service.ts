import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, AppConfig, Clock, ConfigError, SecretBox } from '@app/core';
import type { WebhookSecretEntity } from '@app/database';
import { newWebhookSecret } from './webhook-signature';
import { WebhookSecretView, toSecretView } from './webhook.mapper';
import { WebhooksRepository } from './webhooks.repository';

/** How long the previous secret still signs after a rotation. */
const SECRET_OVERLAP_MS = 24 * 3_600_000;

/** What a rotation run did. */
interface SecretRotationResult {
  /** Rows re-encrypted under the current key (from plaintext or an older key). */
  reencrypted: number;
  /** Rows changed by someone else during the run (left for the next run). */
  skipped: number;
}

/**
 * The account's signing secret: created on first use (first delivery or first read), rotated
 * from the account area with the old one still signing for 24 hours. Never logged.
 *
 * At rest the secret is sealed (AES-256-GCM, SecretBox) under SECRETS_ENCRYPTION_KEY when one
 * is configured, bound to the account id; rows written before, or without a key, are stored
 * as they are and read as they are. At start-up every process checks that each key a stored
 * secret is sealed with is configured, and refuses to start in production without a key once
 * any secret is sealed (docs/webhooks.md, "Secrets at rest").
 */
@Injectable()
export class WebhookSecretsService implements OnApplicationBootstrap {
  private readonly logger = new Logger('WebhookSecrets');
  private readonly box: SecretBox;

  constructor(
    private readonly repo: WebhooksRepository,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.box = new SecretBox(config.secretsEncryption.current, config.secretsEncryption.old);
  }

  async onApplicationBootstrap(): Promise<void> {
    const kids = await this.repo.secretKeyIds();
    const missing = kids.filter((kid) => !this.box.knows(kid));
    if (missing.length > 0 && !this.box.enabled && this.config.production) {
      throw new ConfigError([
        'SECRETS_ENCRYPTION_KEY: required in production: webhook signing secrets are stored encrypted',
      ]);
    }
    if (missing.length > 0) {
      throw new ConfigError([
        `SECRETS_ENCRYPTION_KEY / SECRETS_ENCRYPTION_KEYS_OLD: webhook signing secrets are encrypted with key id(s) ${missing.join(', ')}, which no configured key has`,
      ]);
    }
    if (!this.box.enabled && this.config.production) {
      this.logger.warn(
        'SECRETS_ENCRYPTION_KEY is not set: webhook signing secrets are stored unencrypted',
      );
    }
  }

  private async current(accountId: number, now: Date): Promise<WebhookSecretEntity> {
    return (
      (await this.repo.findSecret(accountId)) ??
      (await this.repo.ensureSecret(accountId, this.seal(accountId, newWebhookSecret()), now))
    );
  }

  /** The secret as shown (created on first read). The account must exist. */
  async view(accountId: number): Promise<WebhookSecretView> {
    const now = this.clock.now();
    return toSecretView(this.opened(await this.current(accountId, now)), now);
  }

  /** A new secret; the old one keeps signing for 24 hours. */
  async rotate(accountId: number): Promise<WebhookSecretView> {
    const now = this.clock.now();
    const row = await this.repo.rotateSecret(
      accountId,
      this.seal(accountId, newWebhookSecret()),
      now,
      new Date(now.getTime() + SECRET_OVERLAP_MS),
    );
    return toSecretView(this.opened(row), now);
  }

  /** The secrets a delivery is signed with at `now`: the current one, then the previous one while valid. */
  async signingSecrets(accountId: number, now: Date): Promise<string[]> {
    const row = this.opened(await this.current(accountId, now));
    const secrets = [row.secret];
    if (row.previousSecret && row.previousSecretValidUntil && row.previousSecretValidUntil > now)
      secrets.push(row.previousSecret);
    return secrets;
  }

  /**
   * Re-encrypts every stored secret that is not sealed with the current key (plaintext rows
   * and rows of older keys), `batch` rows at a time (`npm run secrets:rotate`). A row changed
   * concurrently is skipped and picked up by the next run. Idempotent.
   */
  async reencryptAll(batch = 500): Promise<SecretRotationResult> {
    const kid = this.box.currentKeyId;
    if (!kid) {
      throw new ConfigError(['SECRETS_ENCRYPTION_KEY: required to re-encrypt the secrets']);
    }
    const result: SecretRotationResult = { reencrypted: 0, skipped: 0 };
    let after = 0;
    for (;;) {
      const rows = await this.repo.secretsNotUnderKey(kid, after, batch);
      for (const row of rows) {
        const opened = this.opened(row);
        const changed = await this.repo.replaceSecretValues(
          row,
          this.seal(row.accountId, opened.secret),
          opened.previousSecret === null ? null : this.seal(row.accountId, opened.previousSecret),
        );
        if (changed) result.reencrypted += 1;
        else result.skipped += 1;
      }
      if (rows.length < batch) return result;
      after = rows[rows.length - 1].accountId;
    }
  }

  private seal(accountId: number, secret: string): string {
    return this.box.seal(secret, context(accountId));
  }

  /** The row with its secrets in clear (not stored). */
  private opened(row: WebhookSecretEntity): WebhookSecretEntity {
    const ctx = context(row.accountId);
    return {
      ...row,
      secret: this.box.open(row.secret, ctx),
      previousSecret: row.previousSecret === null ? null : this.box.open(row.previousSecret, ctx),
    };
  }
}

/** The additional data a secret is sealed with: its row (a copy elsewhere does not open). */
function context(accountId: number): string {
  return `webhook_secrets:${accountId}`;
}
