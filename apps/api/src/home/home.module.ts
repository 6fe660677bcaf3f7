import { Module } from '@nestjs/common';
import { HealthModule } from '../health/health.module';
import { PagesModule } from '../pages/pages.module';
import { HomeController } from './home.controller';

/** The home page (GET /, /favicon.ico): links and the live status (HealthModule's Readiness). */
@Module({
  imports: [HealthModule, PagesModule],
  controllers: [HomeController],
})
export class HomeModule {}
