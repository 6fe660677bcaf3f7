import { z } from 'zod';
import { AccessConfig, accessConfig, accessEnv } from './parts/access.config';
import {
  DatabaseConfig,
  checkDatabase,
  databaseConfig,
  databaseEnv,
} from './parts/database.config';
import { GoogleConfig, checkGoogle, googleConfig, googleEnv } from './parts/google.config';
import { GscSyncConfig, gscSyncConfig, gscSyncEnv } from './parts/gsc-sync.config';
import {
  AiVisibilityScansConfig,
  aiVisibilityScansConfig,
  aiVisibilityScansEnv,
} from './parts/ai-visibility-scans.config';
import { HttpConfig, checkHttp, httpConfig, httpEnv } from './parts/http.config';
import { OAuthConfig, oauthConfig, oauthEnv } from './parts/oauth.config';
import { OperationsConfig, operationsConfig, operationsEnv } from './parts/operations.config';
import {
  ProviderConfig,
  checkProvider,
  providerConfig,
  providerEnv,
} from './parts/provider.config';
import {
  RankCollectionConfig,
  checkRankCollection,
  rankCollectionConfig,
  rankCollectionEnv,
} from './parts/rank-collection.config';
import { RedisConfig, redisConfig, redisEnv } from './parts/redis.config';
import { SecretsConfig, secretsConfig, secretsEnv } from './parts/secrets.config';
import {
  SiteAuditConfig,
  checkSiteAudit,
  siteAuditConfig,
  siteAuditEnv,
} from './parts/site-audit.config';
import { WebhooksConfig, webhooksConfig, webhooksEnv } from './parts/webhooks.config';
import { YourDataConfig, yourDataConfig, yourDataEnv } from './parts/your-data.config';

export { DEFAULT_WEBHOOK_RETRY_SCHEDULE_MS } from './parts/webhooks.config';

/**
 * The service's typed, validated environment (docs/configuration.md), assembled from
 * one part per concern (./parts: each declares its variables, their defaults and messages,
 * its slice of AppConfig and its cross-variable checks).
 * `loadConfig` throws a ConfigError naming every invalid variable; start-up stops there.
 */
const schema = z
  .object({
    ...httpEnv.shape,
    ...databaseEnv.shape,
    ...redisEnv.shape,
    ...accessEnv.shape,
    ...providerEnv.shape,
    ...operationsEnv.shape,
    ...siteAuditEnv.shape,
    ...yourDataEnv.shape,
    ...rankCollectionEnv.shape,
    ...googleEnv.shape,
    ...gscSyncEnv.shape,
    ...aiVisibilityScansEnv.shape,
    ...webhooksEnv.shape,
    ...oauthEnv.shape,
    ...secretsEnv.shape,
  })
  .superRefine((env, ctx) => {
    checkDatabase(env, ctx);
    checkHttp(env, ctx);
    checkSiteAudit(env, ctx);
    checkProvider(env, ctx);
    checkGoogle(env, ctx);
    checkRankCollection(env, ctx);
  });

export interface AppConfig
  extends
    HttpConfig,
    DatabaseConfig,
    RedisConfig,
    AccessConfig,
    ProviderConfig,
    OperationsConfig,
    SiteAuditConfig,
    YourDataConfig,
    RankCollectionConfig,
    GoogleConfig,
    GscSyncConfig,
    AiVisibilityScansConfig,
    WebhooksConfig,
    OAuthConfig,
    SecretsConfig {}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map(
        (issue) => `${String(issue.path[0] ?? 'environment')}: ${issue.message}`,
      ),
    );
  }
  const e = parsed.data;
  return {
    ...httpConfig(e),
    ...databaseConfig(e),
    ...redisConfig(e),
    ...accessConfig(e),
    ...providerConfig(e),
    ...operationsConfig(e),
    ...siteAuditConfig(e),
    ...yourDataConfig(e),
    ...rankCollectionConfig(e),
    ...googleConfig(e),
    ...gscSyncConfig(e),
    ...aiVisibilityScansConfig(e),
    ...webhooksConfig(e),
    ...oauthConfig(e),
    ...secretsConfig(e),
  };
}

/** Injection token of the AppConfig object. */
export const APP_CONFIG = Symbol('APP_CONFIG');
