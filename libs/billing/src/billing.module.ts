import { Module } from '@nestjs/common';
import { CallMeterRepository } from './call-meter.repository';
import { CallMeterService } from './call-meter.service';
import { CreditsRepository } from './credits.repository';
import { CreditsService } from './credits.service';
import { FeatureQuotaRepository } from './feature-quota.repository';
import { FeatureQuotaService } from './feature-quota.service';
import { PageBudgetRepository } from './page-budget.repository';
import { PageBudgetService } from './page-budget.service';
import { ReservationsRepository } from './reservations.repository';
import { UsageHistoryRepository } from './usage-history.repository';
import { UsageHistoryService } from './usage-history.service';
import { UsageAlertFiringRepository } from './usage-alert-firing.repository';

/**
 * The call meter and its usage history, credits, feature quotas, the site-audit rolling page
 * budget, the research reservations journal and the firing of usage alerts (the plan
 * catalogue is libs/plans).
 */
@Module({
  providers: [
    CallMeterRepository,
    CallMeterService,
    CreditsRepository,
    CreditsService,
    FeatureQuotaRepository,
    FeatureQuotaService,
    PageBudgetRepository,
    PageBudgetService,
    ReservationsRepository,
    UsageHistoryRepository,
    UsageHistoryService,
    UsageAlertFiringRepository,
  ],
  exports: [
    UsageAlertFiringRepository,
    CallMeterService,
    CreditsService,
    FeatureQuotaService,
    PageBudgetService,
    ReservationsRepository,
    UsageHistoryRepository,
    UsageHistoryService,
  ],
})
export class BillingModule {}
