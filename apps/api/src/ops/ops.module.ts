import { Module } from '@nestjs/common';
import { MetricsController, MetricsGuard } from './metrics.controller';
import { OpsAuth } from './ops-auth';
import { OpsQueues } from './ops-queues';

/** Operations: GET /metrics, and what installOps() mounts (queue dashboard, admin OpenAPI). */
@Module({
  controllers: [MetricsController],
  providers: [OpsAuth, OpsQueues, MetricsGuard],
  exports: [OpsAuth, OpsQueues],
})
export class OpsModule {}
