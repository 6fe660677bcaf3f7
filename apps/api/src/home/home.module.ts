import { Module } from '@nestjs/common';
import { HealthModule } from '../health/health.module';
import { PagesModule } from '../pages/pages.module';
import { HomeController } from './home.controller';

/** GET / (the landing page, which shows the readiness of /health/ready) and /favicon.ico. */
@Module({
  imports: [HealthModule, PagesModule],
  controllers: [HomeController],
})
export class HomeModule {}
