import { Module } from '@nestjs/common';
import { AccountsModule } from '@app/accounts';
import { SiteAuditModule } from '@app/site-audit';
import { RedisModule } from '@app/redis';
import { AdminRoutesModule } from '../admin-routes/admin-routes.module';
import { SessionModule } from '../session/session.module';
import { AccountWebhooksController } from './account-webhooks.controller';
import { AdminWebhooksController } from './admin-webhooks.controller';
import { AccountWebhookEndpointsRepository } from './account-webhook-endpoints.repository';

/**
 * Site-audit webhooks over HTTP (docs/webhooks.md): the signing secret and the deliveries,
 * for the signed-in account (/account/v1) and for operators (/admin/v1). What webhooks are
 * (secrets, the outbox, the signed sender, its queue and sweeper) is in
 * libs/site-audit/src/webhooks; the worker's delivery processor in apps/worker/src/webhooks.
 */
@Module({
  imports: [AccountsModule, SiteAuditModule, SessionModule, AdminRoutesModule, RedisModule],
  controllers: [AccountWebhooksController, AdminWebhooksController],
  providers: [AccountWebhookEndpointsRepository],
})
export class WebhooksModule {}
