import { Module } from '@nestjs/common';
import { BillingModule } from '@app/billing';
import { ProvidersModule } from '@app/providers';
import { ResearchCacheRepository } from './research-cache.repository';
import { InFlightLockService } from './in-flight-lock.service';
import { ResearchRunner } from './research-runner.service';
import { ReservationSweeper } from './reservation-sweeper.service';

/** What every research endpoint shares: provider, cache, reservations journal, in-flight lock, sweeper. */
@Module({
  imports: [ProvidersModule, BillingModule],
  providers: [ResearchCacheRepository, InFlightLockService, ResearchRunner, ReservationSweeper],
  exports: [ResearchRunner, ReservationSweeper, ProvidersModule],
})
export class ResearchModule {}
