import { Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@app/core';
import { SeoDataProvider } from './seo-data-provider';
import { DataForSeoClient } from './dataforseo/dataforseo.client';
import { DataForSeoProvider } from './dataforseo/dataforseo.provider';
import { SandboxProvider } from './sandbox/sandbox.provider';

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

@Module({
  providers: [
    { provide: SeoDataProvider, inject: [APP_CONFIG], useFactory: createSeoDataProvider },
  ],
  exports: [SeoDataProvider],
})
export class ProvidersModule {}
