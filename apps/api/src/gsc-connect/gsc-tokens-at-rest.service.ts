import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, AppConfig, ConfigError } from '@app/core';
import { GscRefreshTokens } from '@app/providers';
import { GscConnectRepository } from './gsc-connect.repository';

/**
 * The Google refresh tokens at rest, like the webhook signing secrets (docs/webhooks.md,
 * "Secrets at rest"; docs/gsc-connect.md, "Security"): at start-up the API refuses to run
 * when a stored token is sealed with a key that is not configured, or, in production, when
 * tokens are sealed and no key is set; `npm run secrets:rotate` re-seals every token not
 * under the current key.
 */
@Injectable()
export class GscTokensAtRest implements OnApplicationBootstrap {
  private readonly logger = new Logger('GscTokens');

  constructor(
    private readonly repo: GscConnectRepository,
    private readonly tokens: GscRefreshTokens,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const missing = (await this.repo.tokenKeyIds()).filter((kid) => !this.tokens.knows(kid));
    if (missing.length > 0 && !this.tokens.enabled && this.config.production) {
      throw new ConfigError([
        'SECRETS_ENCRYPTION_KEY: required in production: Google refresh tokens are stored encrypted',
      ]);
    }
    if (missing.length > 0) {
      throw new ConfigError([
        `SECRETS_ENCRYPTION_KEY / SECRETS_ENCRYPTION_KEYS_OLD: Google refresh tokens are encrypted with key id(s) ${missing.join(', ')}, which no configured key has`,
      ]);
    }
    if (!this.tokens.enabled && this.config.production && this.config.google.clientId) {
      this.logger.warn(
        'SECRETS_ENCRYPTION_KEY is not set: Google refresh tokens are stored unencrypted',
      );
    }
  }

  /** Re-seals every token not under the current key, `batch` at a time; idempotent. */
  async reencryptAll(batch = 500): Promise<{ reencrypted: number; skipped: number }> {
    const kid = this.tokens.currentKeyId;
    if (!kid) throw new ConfigError(['SECRETS_ENCRYPTION_KEY: required to re-encrypt the secrets']);
    const result = { reencrypted: 0, skipped: 0 };
    let after = 0;
    for (;;) {
      const rows = await this.repo.tokensNotUnderKey(kid, after, batch);
      for (const row of rows) {
        const sealed = this.tokens.seal(row.id, this.tokens.open(row));
        if (await this.repo.replaceToken(row.id, row.refreshTokenEnc, sealed))
          result.reencrypted += 1;
        else result.skipped += 1;
      }
      if (rows.length < batch) return result;
      after = rows[rows.length - 1].id;
    }
  }
}
