import { Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig, Clock } from '@app/core';
import { SeoDataProvider } from './seo-data-provider';
import { DataForSeoClient } from './dataforseo/dataforseo.client';
import { DataForSeoProvider } from './dataforseo/dataforseo.provider';
import { SandboxProvider } from './sandbox/sandbox.provider';
import { SerpProvider } from './serp/serp-provider';
import { DataForSeoSerpProvider } from './serp/dataforseo-serp.provider';
import { SandboxSerpProvider } from './serp/sandbox-serp.provider';
import { AiEngineProvider } from './ai-engines/ai-engine-provider';
import { DataForSeoAiEngineProvider } from './ai-engines/dataforseo-ai-engine.provider';
import { SandboxAiEngineProvider } from './ai-engines/sandbox-ai-engine.provider';

/** The adapter chosen by AppConfig.provider (SEO_DATA_PROVIDER; sandbox without credentials). */
export function createSeoDataProvider(config: AppConfig): SeoDataProvider {
  if (config.provider === 'dataforseo') {
    const { baseUrl, login, password, timeoutMs, maxRetries, backoffMs } = config.dataforseo;
    if (!login || !password)
      throw new Error(
        'SEO_DATA_PROVIDER=dataforseo needs DATAFORSEO_LOGIN and DATAFORSEO_PASSWORD',
      );
    return new DataForSeoProvider(
      new DataForSeoClient({ baseUrl, login, password, timeoutMs, maxRetries, backoffMs }),
    );
  }
  return new SandboxProvider();
}

/** The SERP adapter of rank collection, chosen like the data provider (docs/rank-collection.md). */
export function createSerpProvider(config: AppConfig, clock?: Clock): SerpProvider {
  if (config.provider === 'dataforseo') {
    const { baseUrl, login, password, timeoutMs, maxRetries, backoffMs } = config.dataforseo;
    if (!login || !password)
      throw new Error(
        'SEO_DATA_PROVIDER=dataforseo needs DATAFORSEO_LOGIN and DATAFORSEO_PASSWORD',
      );
    return new DataForSeoSerpProvider(
      new DataForSeoClient({ baseUrl, login, password, timeoutMs, maxRetries, backoffMs }),
    );
  }
  return new SandboxSerpProvider(() => clock?.now() ?? new Date());
}

/**
 * The AI-engine adapter of AI-visibility scans, chosen like the data provider
 * (docs/ai-visibility-scans.md): its own client timeout (AI_ENGINE_TIMEOUT_MS, live LLM
 * tasks run up to 120 s) and per-engine concurrency (AI_ENGINE_CONCURRENCY).
 */
export function createAiEngineProvider(config: AppConfig, clock?: Clock): AiEngineProvider {
  const { engineConcurrency, engineTimeoutMs } = config.aiVisibilityScans;
  if (config.provider === 'dataforseo') {
    const { baseUrl, login, password, maxRetries, backoffMs } = config.dataforseo;
    if (!login || !password)
      throw new Error(
        'SEO_DATA_PROVIDER=dataforseo needs DATAFORSEO_LOGIN and DATAFORSEO_PASSWORD',
      );
    return new DataForSeoAiEngineProvider(
      new DataForSeoClient({
        baseUrl,
        login,
        password,
        timeoutMs: engineTimeoutMs,
        maxRetries,
        backoffMs,
      }),
      engineConcurrency,
    );
  }
  return new SandboxAiEngineProvider(() => clock?.now() ?? new Date(), engineConcurrency);
}

@Module({
  providers: [
    { provide: SeoDataProvider, inject: [APP_CONFIG], useFactory: createSeoDataProvider },
    {
      provide: SerpProvider,
      inject: [APP_CONFIG, { token: Clock, optional: true }],
      useFactory: createSerpProvider,
    },
    {
      provide: AiEngineProvider,
      inject: [APP_CONFIG, { token: Clock, optional: true }],
      useFactory: createAiEngineProvider,
    },
  ],
  exports: [SeoDataProvider, SerpProvider, AiEngineProvider],
})
export class ProvidersModule {}
