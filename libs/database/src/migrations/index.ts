import { Foundation1763700000000 } from './1763700000000-foundation';
import { Research1763900000000 } from './1763900000000-research';
import { YourData1763800000000 } from './1763800000000-your-data';
import { SiteAuditJobs1764000000000 } from './1764000000000-site-audit-jobs';
import { GscPrimaryKeys1764100000000 } from './1764100000000-gsc-primary-keys';
import { UsersSessions1764200000000 } from './1764200000000-users-sessions';
import { OAuth1764300000000 } from './1764300000000-oauth';
import { Webhooks1764400000000 } from './1764400000000-webhooks';
import { YourDataScale1764500000000 } from './1764500000000-your-data-scale';
import { YourDataScale21764600000000 } from './1764600000000-your-data-scale-2';
import { RankKeywordJson1764700000000 } from './1764700000000-rank-keyword-json';
import { OAuthClientMetadataOnce1764800000000 } from './1764800000000-oauth-client-metadata-once';
import { WebhookSecretsAtRest1764900000000 } from './1764900000000-webhook-secrets-at-rest';
import { UsageHistory1765000000000 } from './1765000000000-usage-history';
import { RankVersions1765100000000 } from './1765100000000-rank-versions';
import { IdempotencyKeys1765230000000 } from './1765230000000-idempotency-keys';
import { RankCollection1765300000000 } from './1765300000000-rank-collection';
import { RankProjectMatch1765350000000 } from './1765350000000-rank-project-match';
import { GscSync1765400000000 } from './1765400000000-gsc-sync';
import { GscConnectionSites1765450000000 } from './1765450000000-gsc-connection-sites';
import { AiVisibilityScans1765600000000 } from './1765600000000-ai-visibility-scans';

/** Every migration, in order. Add new migrations at the end. */
export const MIGRATIONS = [
  Foundation1763700000000,
  Research1763900000000,
  YourData1763800000000,
  SiteAuditJobs1764000000000,
  GscPrimaryKeys1764100000000,
  UsersSessions1764200000000,
  OAuth1764300000000,
  Webhooks1764400000000,
  YourDataScale1764500000000,
  YourDataScale21764600000000,
  RankKeywordJson1764700000000,
  OAuthClientMetadataOnce1764800000000,
  WebhookSecretsAtRest1764900000000,
  UsageHistory1765000000000,
  RankVersions1765100000000,
  IdempotencyKeys1765230000000,
  RankCollection1765300000000,
  RankProjectMatch1765350000000,
  GscSync1765400000000,
  GscConnectionSites1765450000000,
  AiVisibilityScans1765600000000,
];
