import { Module } from '@nestjs/common';
import { OpsModule } from '../ops/ops.module';
import { HealthController } from './health.controller';
import { Readiness } from './readiness';

/** /health/live and /health/ready; exports Readiness, which the home page shows too. */
@Module({
  imports: [OpsModule],
  controllers: [HealthController],
  providers: [Readiness],
  exports: [Readiness],
})
export class HealthModule {}
