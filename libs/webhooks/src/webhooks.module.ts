import { DynamicModule, Module, Provider, Type } from '@nestjs/common';
import { BullModule } from '@nestjs/bullmq';
import { WebhookDeliveriesService } from './webhook-deliveries.service';
import { WebhookJobRecords } from './webhook-job-records';
import { WebhookSecretsService } from './webhook-secrets.service';
import { WEBHOOKS_QUEUE, WEBHOOK_JOB_OPTIONS, WebhooksQueue } from './webhooks.queue';
import { WebhooksRepository } from './webhooks.repository';

/**
 * Signed webhooks (docs/webhooks.md): signing secrets, the outbox of deliveries, the signed
 * sender, the webhooks queue. Registered once, by the feature whose jobs send them
 * (libs/site-audit), which passes how a job event finds its final record (WebhookJobRecords)
 * and re-exports this module; usage alerts send their own data. Needs BullMQ's root
 * connection (SiteAuditModule's) and the global CoreModule and DatabaseModule.
 */
@Module({})
export class WebhooksModule {
  /** `jobRecords` implements WebhookJobRecords; `deps` are the providers it needs. */
  static register(jobRecords: Type<WebhookJobRecords>, deps: Provider[] = []): DynamicModule {
    return {
      module: WebhooksModule,
      imports: [
        BullModule.registerQueue({ name: WEBHOOKS_QUEUE, defaultJobOptions: WEBHOOK_JOB_OPTIONS }),
      ],
      providers: [
        ...deps,
        { provide: WebhookJobRecords, useClass: jobRecords },
        WebhooksRepository,
        WebhooksQueue,
        WebhookSecretsService,
        WebhookDeliveriesService,
      ],
      exports: [WebhookSecretsService, WebhookDeliveriesService],
    };
  }
}
