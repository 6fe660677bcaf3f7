import { Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { SessionContext } from '@app/accounts';
import { ApiError } from '@app/core';
import { FailureWindow, RedisKeys } from '@app/redis';
import {
  WebhookDeliveriesService,
  WebhookDeliveryView,
  WebhookSecretView,
  WebhookSecretsService,
  WebhookTestResult,
} from '@app/webhooks';
import {
  AccountWebhookEndpointsRepository,
  AccountWebhookView,
} from './account-webhook-endpoints.repository';
import { AccountAreaController } from '../session/account-area.decorator';
import { CurrentSession } from '../session/session.decorator';

/** How many deliveries the account area lists. */
const ACCOUNT_DELIVERIES_SHOWN = 50;

/** Test deliveries an account may send per window (all its webhooks together). */
export const WEBHOOK_TESTS_PER_WINDOW = 10;
export const WEBHOOK_TEST_WINDOW_MS = 60_000;

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
    private readonly endpoints: AccountWebhookEndpointsRepository,
    private readonly window: FailureWindow,
    private readonly keys: RedisKeys,
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

  @Get('webhooks')
  @ApiOperation({
    summary: 'The account’s webhook URLs (usage alerts, site audits), each with an id to test',
  })
  webhooks(@CurrentSession() session: SessionContext): Promise<AccountWebhookView[]> {
    return this.endpoints.list(session.accountId);
  }

  @Post('webhooks/:id/test')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Sends one signed `webhook.test` delivery to the webhook now and answers what it got ' +
      '(status code, time, error); 10 a minute per account',
  })
  async test(
    @CurrentSession() session: SessionContext,
    @Param('id') id: string,
  ): Promise<WebhookTestResult> {
    const webhook = await this.endpoints.find(session.accountId, id);
    if (!webhook) throw ApiError.notFound('Webhook');
    const verdict = await this.window.attempt(
      [
        {
          key: this.keys.of('webhook-test', 'account', session.accountId),
          limit: WEBHOOK_TESTS_PER_WINDOW,
        },
      ],
      WEBHOOK_TEST_WINDOW_MS,
      true,
    );
    if (!verdict.allowed) {
      const wait = verdict.retryAfterSeconds;
      throw new ApiError(
        'RATE_LIMITED',
        `At most ${WEBHOOK_TESTS_PER_WINDOW} test deliveries a minute. Retry in ${wait} s.`,
        {
          meta: { retry_after: wait, limit: WEBHOOK_TESTS_PER_WINDOW },
          headers: { 'Retry-After': wait },
        },
      );
    }
    return this.deliveries.sendTest(session.accountId, webhook.url, webhook.used_by);
  }
}
