import { Module } from '@nestjs/common';
import { MetricsController, MetricsGuard } from './metrics.controller';
import { OpsAuth } from './ops-auth';
import { OpsQueues } from './ops-queues';
import { DemoSamplesRepository } from './demo-samples.repository';

/**
 * Operations: GET /metrics, and what installOps() mounts (queue dashboard, admin OpenAPI; the
 * demo's sample ids of the public one).
 */
@Module({
  controllers: [MetricsController],
  providers: [OpsAuth, OpsQueues, MetricsGuard, DemoSamplesRepository],
  exports: [OpsAuth, OpsQueues],
})
export class OpsModule {}
