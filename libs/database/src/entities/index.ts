import { AccountEntity } from './account.entity';
import { ApiKeyEntity } from './api-key.entity';
import { CreditLedgerEntity } from './credit-ledger.entity';
import { ApiCallMeterEntity } from './api-call-meter.entity';
import { FeatureUsageEntity } from './feature-usage.entity';
import { ResearchCacheEntity } from './research-cache.entity';
import { ResearchReservationEntity } from './research-reservation.entity';
import { JobEntity } from './job.entity';
import { SiteAuditPageBudgetEntity } from './site-audit-page-budget.entity';
import { AuditEntity } from './audit.entity';
import { AuditPageEntity } from './audit-page.entity';
import {
  RankCheckEntity,
  RankProjectEntity,
  RankVersionEntity,
  TrackedKeywordEntity,
} from './rank.entity';
import {
  GscConnectionEntity,
  GscDailyRollupEntity,
  GscMonthlyRollupEntity,
  GscPropertyEntity,
  GscRowEntity,
  GscWeeklyRollupEntity,
} from './gsc.entity';
import {
  AiVisibilityCompetitorEntity,
  AiVisibilityProjectEntity,
  AiVisibilitySnapshotEntity,
} from './ai-visibility.entity';
import { UserEntity } from './user.entity';
import { SessionEntity } from './session.entity';
import {
  OAuthClientEntity,
  OAuthCodeEntity,
  OAuthGrantEntity,
  OAuthTokenEntity,
} from './oauth.entity';
import { WebhookDeliveryEntity, WebhookSecretEntity } from './webhook.entity';
import {
  UsageAlertFiredEntity,
  UsageAlertsEntity,
  UsageDailyEntity,
  UsageEventEntity,
} from './usage.entity';
import { IdempotencyKeyEntity } from './idempotency-key.entity';
import { ProviderSpendEntity, RankSerpTaskEntity } from './rank-collection.entity';

export * from './account.entity';
export * from './api-key.entity';
export * from './credit-ledger.entity';
export * from './api-call-meter.entity';
export * from './feature-usage.entity';
export * from './research-cache.entity';
export * from './research-reservation.entity';
export * from './job.entity';
export * from './site-audit-page-budget.entity';
export * from './audit.entity';
export * from './audit-page.entity';
export * from './rank.entity';
export * from './gsc.entity';
export * from './ai-visibility.entity';
export * from './user.entity';
export * from './session.entity';
export * from './oauth.entity';
export * from './webhook.entity';
export * from './usage.entity';
export * from './idempotency-key.entity';
export * from './rank-collection.entity';

/** Every entity the data source knows. Add new entities here. */
export const ENTITIES = [
  AccountEntity,
  ApiKeyEntity,
  CreditLedgerEntity,
  ApiCallMeterEntity,
  FeatureUsageEntity,
  ResearchCacheEntity,
  ResearchReservationEntity,
  JobEntity,
  SiteAuditPageBudgetEntity,
  AuditEntity,
  AuditPageEntity,
  RankProjectEntity,
  TrackedKeywordEntity,
  RankCheckEntity,
  RankVersionEntity,
  GscConnectionEntity,
  GscPropertyEntity,
  GscRowEntity,
  GscDailyRollupEntity,
  GscWeeklyRollupEntity,
  GscMonthlyRollupEntity,
  AiVisibilityProjectEntity,
  AiVisibilitySnapshotEntity,
  AiVisibilityCompetitorEntity,
  UserEntity,
  SessionEntity,
  OAuthClientEntity,
  OAuthGrantEntity,
  OAuthCodeEntity,
  OAuthTokenEntity,
  WebhookSecretEntity,
  WebhookDeliveryEntity,
  UsageDailyEntity,
  UsageEventEntity,
  UsageAlertsEntity,
  UsageAlertFiredEntity,
  IdempotencyKeyEntity,
  RankSerpTaskEntity,
  ProviderSpendEntity,
];
