import { Global, Logger, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { APP_CONFIG, ConfigError, loadConfig } from '@app/core';
import { ProvidersModule, createSeoDataProvider } from './providers.module';
import { SeoDataProvider } from './seo-data-provider';

describe('provider selection (SEO_DATA_PROVIDER)', () => {
  it('sandbox without credentials, dataforseo with them', () => {
    expect(createSeoDataProvider(loadConfig({})).name).toBe('sandbox');
    expect(
      createSeoDataProvider(loadConfig({ DATAFORSEO_LOGIN: 'l', DATAFORSEO_PASSWORD: 'p' })).name,
    ).toBe('dataforseo');
    expect(
      createSeoDataProvider(
        loadConfig({
          SEO_DATA_PROVIDER: 'sandbox',
          DATAFORSEO_LOGIN: 'l',
          DATAFORSEO_PASSWORD: 'p',
        }),
      ).name,
    ).toBe('sandbox');
  });

  it('DATAFORSEO_BACKOFF_MS: default 500, integer 0-60000', () => {
    expect(loadConfig({}).dataforseo.backoffMs).toBe(500);
    expect(loadConfig({ DATAFORSEO_BACKOFF_MS: '25' }).dataforseo.backoffMs).toBe(25);
    expect(() => loadConfig({ DATAFORSEO_BACKOFF_MS: 'soon' })).toThrow(ConfigError);
    expect(() => loadConfig({ DATAFORSEO_BACKOFF_MS: '60001' })).toThrow(/DATAFORSEO_BACKOFF_MS/);
  });
});

describe('ProvidersModule', () => {
  async function boot(env: Record<string, string>) {
    @Global()
    @Module({
      providers: [{ provide: APP_CONFIG, useValue: loadConfig(env) }],
      exports: [APP_CONFIG],
    })
    class ConfigStub {}
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const ref = await Test.createTestingModule({
      imports: [ConfigStub, ProvidersModule],
    }).compile();
    const app = ref.createNestApplication({ logger: false });
    await app.init();
    const provider = app.get(SeoDataProvider);
    const warnings = warn.mock.calls.map((c) => String(c[0]));
    warn.mockRestore();
    await app.close();
    return { provider, warnings };
  }

  it('announces the sandbox loudly at start-up', async () => {
    const { provider, warnings } = await boot({});
    expect(provider.name).toBe('sandbox');
    expect(warnings.some((w) => /SANDBOX/.test(w))).toBe(true);
  });

  it('stays quiet with the real adapter', async () => {
    const { provider, warnings } = await boot({ DATAFORSEO_LOGIN: 'l', DATAFORSEO_PASSWORD: 'p' });
    expect(provider.name).toBe('dataforseo');
    expect(warnings.some((w) => /SANDBOX/.test(w))).toBe(false);
  });
});
