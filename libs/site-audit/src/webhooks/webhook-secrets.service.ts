import { Injectable } from '@nestjs/common';
import { Clock } from '@app/core';
import type { WebhookSecretEntity } from '@app/database';
import { newWebhookSecret } from './webhook-signature';
import { WebhookSecretView, toSecretView } from './webhook.mapper';
import { WebhooksRepository } from './webhooks.repository';

/** How long the previous secret still signs after a rotation. */
export const SECRET_OVERLAP_MS = 24 * 3_600_000;

/**
 * The account's signing secret: created on first use (first delivery or first read), rotated
 * from the account area with the old one still signing for 24 hours. Never logged.
 */
@Injectable()
export class WebhookSecretsService {
  constructor(
    private readonly repo: WebhooksRepository,
    private readonly clock: Clock,
  ) {}

  private async current(accountId: number, now: Date): Promise<WebhookSecretEntity> {
    return (
      (await this.repo.findSecret(accountId)) ??
      (await this.repo.ensureSecret(accountId, newWebhookSecret(), now))
    );
  }

  /** The secret as shown (created on first read). The account must exist. */
  async view(accountId: number): Promise<WebhookSecretView> {
    const now = this.clock.now();
    return toSecretView(await this.current(accountId, now), now);
  }

  /** A new secret; the old one keeps signing for 24 hours. */
  async rotate(accountId: number): Promise<WebhookSecretView> {
    const now = this.clock.now();
    const row = await this.repo.rotateSecret(
      accountId,
      newWebhookSecret(),
      now,
      new Date(now.getTime() + SECRET_OVERLAP_MS),
    );
    return toSecretView(row, now);
  }

  /** The secrets a delivery is signed with at `now`: the current one, then the previous one while valid. */
  async signingSecrets(accountId: number, now: Date): Promise<string[]> {
    const row = await this.current(accountId, now);
    const secrets = [row.secret];
    if (row.previousSecret && row.previousSecretValidUntil && row.previousSecretValidUntil > now)
      secrets.push(row.previousSecret);
    return secrets;
  }
}
