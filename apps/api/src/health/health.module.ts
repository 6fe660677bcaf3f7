import { Module } from '@nestjs/common';
import { HomeController } from '../home/home.controller';
import { PagesModule } from '../pages/pages.module';
import { HealthController } from './health.controller';
import { Readiness } from './readiness';

/** /health/live, /health/ready, and the home page (GET /), which shows the same readiness. */
@Module({
  imports: [PagesModule],
  controllers: [HealthController, HomeController],
  providers: [Readiness],
})
export class HealthModule {}
