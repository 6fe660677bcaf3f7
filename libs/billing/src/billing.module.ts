import { Global, Module } from '@nestjs/common';
import { CallMeterService } from './call-meter.service';
import { CreditsService } from './credits.service';
import { FeatureQuotaService } from './feature-quota.service';

@Global()
@Module({
  providers: [CallMeterService, CreditsService, FeatureQuotaService],
  exports: [CallMeterService, CreditsService, FeatureQuotaService],
})
export class BillingModule {}
