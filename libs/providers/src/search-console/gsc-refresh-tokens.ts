import { AppConfig, SecretBox } from '@app/core';

/**
 * The refresh tokens of Google connections at rest: sealed by the secret box of the webhook
 * signing secrets (SECRETS_ENCRYPTION_KEY, AES-256-GCM, docs/webhooks.md "Secrets at rest"),
 * bound to the connection's row (`gsc_connections:<id>`), so a value copied to another row
 * does not open. Opened only to call Google; never logged, never shown.
 */
export class GscRefreshTokens {
  constructor(private readonly box: SecretBox) {}

  static fromConfig(config: Pick<AppConfig, 'secretsEncryption'>): GscRefreshTokens {
    return new GscRefreshTokens(
      new SecretBox(config.secretsEncryption.current, config.secretsEncryption.old),
    );
  }

  /** Whether new tokens are sealed (SECRETS_ENCRYPTION_KEY is set). */
  get enabled(): boolean {
    return this.box.enabled;
  }

  /** The id of the key new tokens are sealed with, or null. */
  get currentKeyId(): string | null {
    return this.box.currentKeyId;
  }

  /** Whether a stored key id is one of the configured keys. */
  knows(kid: string): boolean {
    return this.box.knows(kid);
  }

  seal(connectionId: number, refreshToken: string): string {
    return this.box.seal(refreshToken, context(connectionId));
  }

  open(connection: { id: number; refreshTokenEnc: string }): string {
    return this.box.open(connection.refreshTokenEnc, context(connection.id));
  }
}

const context = (connectionId: number) => `gsc_connections:${connectionId}`;
