import { z } from 'zod';
import { int, url } from './env-values';

/** The SEO data provider (DataForSEO or the sandbox) and the keyword cache. */
export const providerEnv = z.object({
  SEO_DATA_PROVIDER: z
    .string()
    .optional()
    .transform((v) => (v === '' ? undefined : v))
    .pipe(z.enum(['dataforseo', 'sandbox']).optional()),
  DATAFORSEO_BASE_URL: url(['http:', 'https:'], 'https://api.dataforseo.com'),
  DATAFORSEO_LOGIN: z.string().optional(),
  DATAFORSEO_PASSWORD: z.string().optional(),
  DATAFORSEO_TIMEOUT_MS: int(100, 600_000, 30_000),
  DATAFORSEO_MAX_RETRIES: int(0, 10, 2),
  DATAFORSEO_BACKOFF_MS: int(0, 60_000, 500),
  KEYWORD_CACHE_TTL_SECONDS: int(0, 365 * 86_400, 7 * 86_400),
});
type ProviderEnv = z.infer<typeof providerEnv>;

export interface ProviderConfig {
  provider: 'dataforseo' | 'sandbox';
  dataforseo: {
    baseUrl: string;
    login: string | undefined;
    password: string | undefined;
    timeoutMs: number;
    maxRetries: number;
    /** Base delay of the exponential retry backoff (plus up to the same again as jitter). */
    backoffMs: number;
  };
  keywordCacheTtlSeconds: number;
}

export function providerConfig(e: ProviderEnv): ProviderConfig {
  const login = e.DATAFORSEO_LOGIN || undefined;
  return {
    provider: e.SEO_DATA_PROVIDER ?? (login ? 'dataforseo' : 'sandbox'),
    dataforseo: {
      baseUrl: e.DATAFORSEO_BASE_URL!,
      login,
      password: e.DATAFORSEO_PASSWORD || undefined,
      timeoutMs: e.DATAFORSEO_TIMEOUT_MS,
      maxRetries: e.DATAFORSEO_MAX_RETRIES,
      backoffMs: e.DATAFORSEO_BACKOFF_MS,
    },
    keywordCacheTtlSeconds: e.KEYWORD_CACHE_TTL_SECONDS,
  };
}

export function checkProvider(e: ProviderEnv, ctx: z.RefinementCtx): void {
  if (e.SEO_DATA_PROVIDER === 'dataforseo' && (!e.DATAFORSEO_LOGIN || !e.DATAFORSEO_PASSWORD)) {
    ctx.addIssue({
      code: 'custom',
      path: ['DATAFORSEO_LOGIN'],
      message: 'SEO_DATA_PROVIDER=dataforseo needs DATAFORSEO_LOGIN and DATAFORSEO_PASSWORD',
    });
  }
}
