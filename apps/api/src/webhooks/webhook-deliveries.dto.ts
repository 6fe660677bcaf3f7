import { QueryInt } from '@app/gateway';

/** GET /admin/v1/accounts/:id/webhook-deliveries?limit=&page= */
export class WebhookDeliveriesQueryDto {
  @QueryInt(1, 200, { optional: true, api: { default: 50 } })
  limit?: number;

  @QueryInt(1, 10_000, { optional: true, api: { default: 1 } })
  page?: number;
}
