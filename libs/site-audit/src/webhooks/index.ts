export * from './webhook-signature';
export * from './webhook-url';
export * from './webhook-sender';
export * from './webhook.mapper';
export * from './webhooks.queue';
export * from './webhook-secrets.service';
export * from './webhook-deliveries.service';
export * from './webhook-sweeper.service';
