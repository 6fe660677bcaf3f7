import { Get, HttpCode, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { SessionContext } from '@app/accounts';
import {
  WebhookDeliveriesService,
  WebhookDeliveryView,
  WebhookSecretView,
  WebhookSecretsService,
} from '@app/webhooks';
import { AccountAreaController } from '../session/account-area.decorator';
import { CurrentSession } from '../session/session.decorator';

/** How many deliveries the account area lists. */
const ACCOUNT_DELIVERIES_SHOWN = 50;

/**
 * Site-audit webhooks of the signed-in account (docs/webhooks.md): the signing secret
 * (created on first read), its rotation (the old secret keeps signing for 24 hours) and the
 * last deliveries.
 */
@AccountAreaController()
export class AccountWebhooksController {
  constructor(
    private readonly secrets: WebhookSecretsService,
    private readonly deliveries: WebhookDeliveriesService,
  ) {}

  @Get('webhook-secret')
  @ApiOperation({ summary: 'The webhook signing secret (created on first use)' })
  secret(@CurrentSession() session: SessionContext): Promise<WebhookSecretView> {
    return this.secrets.view(session.accountId);
  }

  @Post('webhook-secret/rotate')
  @HttpCode(200)
  @ApiOperation({
    summary: 'A new signing secret; deliveries are signed with the old one too for 24 hours',
  })
  rotate(@CurrentSession() session: SessionContext): Promise<WebhookSecretView> {
    return this.secrets.rotate(session.accountId);
  }

  @Get('webhook-deliveries')
  @ApiOperation({ summary: 'The last 50 webhook deliveries, newest first' })
  list(@CurrentSession() session: SessionContext): Promise<WebhookDeliveryView[]> {
    return this.deliveries.list(session.accountId, ACCOUNT_DELIVERIES_SHOWN);
  }
}
