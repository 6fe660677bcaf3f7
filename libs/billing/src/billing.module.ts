import { Global, Module } from '@nestjs/common';
import { CallMeterService } from './call-meter.service';
import { CreditsService } from './credits.service';
import { FeatureQuotaService } from './feature-quota.service';
import { ReservationsRepository } from './reservations.repository';

@Global()
@Module({
  providers: [CallMeterService, CreditsService, FeatureQuotaService, ReservationsRepository],
  exports: [CallMeterService, CreditsService, FeatureQuotaService, ReservationsRepository],
})
export class BillingModule {}
