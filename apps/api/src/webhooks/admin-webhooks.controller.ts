import { Get, Param, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { AccountsService } from '@app/accounts';
import { ParseIdPipe } from '@app/gateway';
import {
  WebhookDeliveriesService,
  WebhookDeliveryView,
  WebhookSecretView,
  WebhookSecretsService,
} from '@app/webhooks';
import { AdminController } from '../admin-routes/admin-route.decorator';
import { found } from '../admin-routes/admin-http-status';
import { WebhookDeliveriesQueryDto } from './webhook-deliveries.dto';

/** An account's site-audit webhooks: its signing secret and its deliveries (docs/webhooks.md). */
@AdminController()
export class AdminWebhooksController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly secrets: WebhookSecretsService,
    private readonly deliveries: WebhookDeliveriesService,
  ) {}

  @Get('accounts/:id/webhook-secret')
  @ApiOperation({ summary: 'The account’s webhook signing secret (created on first use)' })
  async secret(@Param('id', ParseIdPipe) id: number): Promise<WebhookSecretView> {
    found(await this.accounts.find(id), 'Account');
    return this.secrets.view(id);
  }

  @Get('accounts/:id/webhook-deliveries')
  @ApiOperation({ summary: 'The account’s webhook deliveries, newest first' })
  async list(
    @Param('id', ParseIdPipe) id: number,
    @Query() query: WebhookDeliveriesQueryDto,
  ): Promise<WebhookDeliveryView[]> {
    found(await this.accounts.find(id), 'Account');
    const limit = query.limit ?? 50;
    return this.deliveries.list(id, limit, ((query.page ?? 1) - 1) * limit);
  }
}
