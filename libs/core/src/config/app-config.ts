import { z } from 'zod';

/**
 * The service's typed, validated environment (docs/configuration in README).
 * `loadConfig` throws a ConfigError naming every invalid variable; start-up stops there.
 */
const bool = (name: string, fallback: boolean) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return fallback;
      const s = v.trim().toLowerCase();
      if (['true', '1', 'yes'].includes(s)) return true;
      if (['false', '0', 'no'].includes(s)) return false;
      ctx.addIssue({ code: 'custom', message: `${name} must be true or false` });
      return z.NEVER;
    });

const int = (min: number, max: number, fallback: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return fallback;
      if (!/^\d+$/.test(v.trim())) {
        ctx.addIssue({ code: 'custom', message: `must be an integer from ${min} to ${max}` });
        return z.NEVER;
      }
      const n = Number(v.trim());
      if (n < min || n > max) {
        ctx.addIssue({ code: 'custom', message: `must be an integer from ${min} to ${max}` });
        return z.NEVER;
      }
      return n;
    });

const url = (protocols: string[], fallback?: string) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      const value = v === undefined || v === '' ? fallback : v.trim();
      if (value === undefined) return undefined;
      try {
        const parsed = new URL(value);
        if (!protocols.includes(parsed.protocol)) throw new Error('protocol');
        return value.replace(/\/+$/, '');
      } catch {
        ctx.addIssue({
          code: 'custom',
          message: `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`,
        });
        return z.NEVER;
      }
    });

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const schema = z
  .object({
    NODE_ENV: z.string().optional(),
    PORT: int(1, 65535, 3000),
    DATABASE_URL: url(['postgres:', 'postgresql:'], 'postgres://postgres@127.0.0.1:5432/seo_api'),
    REDIS_URL: url(['redis:', 'rediss:'], 'redis://127.0.0.1:6379'),
    REDIS_PREFIX: z
      .string()
      .optional()
      .transform((v) => (v === undefined || v === '' ? 'seo' : v))
      .pipe(z.string().regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'must be 1-64 of A-Z a-z 0-9 _ . : -')),
    PUBLIC_BASE_URL: url(['http:', 'https:']),
    ADMIN_TOKEN: z
      .string()
      .optional()
      .transform((v) => (v === undefined || v === '' ? undefined : v))
      .pipe(z.string().min(16, 'must be at least 16 characters').optional()),
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
    KEYWORD_CACHE_TTL_SECONDS: int(0, 365 * 86_400, 7 * 86_400),
    AUDIT_ALLOW_PRIVATE_NETWORKS: bool('AUDIT_ALLOW_PRIVATE_NETWORKS', false),
    LOG_LEVEL: z
      .string()
      .optional()
      .transform((v) => (v === undefined || v === '' ? 'info' : v.toLowerCase()))
      .pipe(z.enum(LOG_LEVELS)),
    RATE_LIMIT_WINDOW_SECONDS: int(1, 3600, 60),
    SIGN_IN_WINDOW_SECONDS: int(1, 86_400, 900),
    ADMIN_AUTH_WINDOW_SECONDS: int(1, 3600, 60),
    KEY_CACHE_TTL_MS: int(0, 5000, 5000),
    DB_POOL_SIZE: int(1, 200, 10),
    DATAFORSEO_BACKOFF_MS: int(0, 60_000, 500),
    // ---- site-audit jobs (docs/site-audit-jobs.md) ----
    AUDIT_USER_AGENT: z
      .string()
      .optional()
      .transform((v) => (v === undefined || v.trim() === '' ? 'SeoApiAuditBot/1.0' : v.trim()))
      .pipe(z.string().regex(/^[\x20-\x7e]{1,200}$/, 'must be 1-200 printable ASCII characters')),
    AUDIT_CRAWL_TIME_LIMIT_SECONDS: int(5, 3600, 240),
    AUDIT_JOB_DEADLINE_SECONDS: int(60, 7 * 86_400, 1800),
    WORKER_CONCURRENCY: int(1, 64, 2),
    AUDIT_STALLED_INTERVAL_MS: int(500, 600_000, 30_000),
    AUDIT_MAX_STALLED_COUNT: int(0, 10, 1),
    AUDIT_POLITENESS_DELAY_MS: int(0, 60_000, 250),
    AUDIT_SWEEP_INTERVAL_MS: int(1000, 3_600_000, 60_000),
  })
  .superRefine((env, ctx) => {
    if (env.AUDIT_JOB_DEADLINE_SECONDS <= env.AUDIT_CRAWL_TIME_LIMIT_SECONDS) {
      ctx.addIssue({
        code: 'custom',
        path: ['AUDIT_JOB_DEADLINE_SECONDS'],
        message:
          'must be greater than AUDIT_CRAWL_TIME_LIMIT_SECONDS (a job needs time for its crawl and retries)',
      });
    }
    if (
      env.SEO_DATA_PROVIDER === 'dataforseo' &&
      (!env.DATAFORSEO_LOGIN || !env.DATAFORSEO_PASSWORD)
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['DATAFORSEO_LOGIN'],
        message: 'SEO_DATA_PROVIDER=dataforseo needs DATAFORSEO_LOGIN and DATAFORSEO_PASSWORD',
      });
    }
  });

export interface AppConfig {
  port: number;
  databaseUrl: string;
  redisUrl: string;
  redisPrefix: string;
  publicBaseUrl: string;
  adminToken: string | undefined;
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
  auditAllowPrivateNetworks: boolean;
  logLevel: (typeof LOG_LEVELS)[number];
  rateLimitWindowSeconds: number;
  /** SIGN_IN_WINDOW_SECONDS: the window of the sign-in failure throttle (docs/account-sessions.md). */
  signInWindowSeconds: number;
  /** ADMIN_AUTH_WINDOW_SECONDS: the window of the failed admin-token throttle (20 failures per client IP). */
  adminAuthWindowSeconds: number;
  keyCacheTtlMs: number;
  dbPoolSize: number;
  /** Site-audit jobs: crawl settings and worker behaviour (docs/site-audit-jobs.md). */
  audit: {
    /** AUDIT_USER_AGENT: User-Agent of the crawler, also its robots.txt product token. */
    userAgent: string;
    /** AUDIT_CRAWL_TIME_LIMIT_SECONDS: one crawl attempt stops (and reports what it has) after this. */
    crawlTimeLimitSeconds: number;
    /** AUDIT_JOB_DEADLINE_SECONDS: a job still queued/running this long after creation is failed by the sweeper. */
    jobDeadlineSeconds: number;
    /** AUDIT_STALLED_INTERVAL_MS: stalled-job check interval, also the job lock duration. */
    stalledIntervalMs: number;
    /** AUDIT_MAX_STALLED_COUNT: how often a job may stall (worker died) before BullMQ fails it. */
    maxStalledCount: number;
    /** AUDIT_POLITENESS_DELAY_MS: per-host delay between request starts. */
    politenessDelayMs: number;
    /** AUDIT_SWEEP_INTERVAL_MS: how often the worker looks for jobs past their deadline. */
    sweepIntervalMs: number;
  };
  /** WORKER_CONCURRENCY: crawls one worker process runs at the same time. */
  workerConcurrency: number;
}

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
  const login = e.DATAFORSEO_LOGIN || undefined;
  return {
    port: e.PORT,
    databaseUrl: e.DATABASE_URL!,
    redisUrl: e.REDIS_URL!,
    redisPrefix: e.REDIS_PREFIX,
    publicBaseUrl: e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT}`,
    adminToken: e.ADMIN_TOKEN,
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
    auditAllowPrivateNetworks: e.AUDIT_ALLOW_PRIVATE_NETWORKS,
    logLevel: e.LOG_LEVEL,
    rateLimitWindowSeconds: e.RATE_LIMIT_WINDOW_SECONDS,
    signInWindowSeconds: e.SIGN_IN_WINDOW_SECONDS,
    adminAuthWindowSeconds: e.ADMIN_AUTH_WINDOW_SECONDS,
    keyCacheTtlMs: e.KEY_CACHE_TTL_MS,
    dbPoolSize: e.DB_POOL_SIZE,
    audit: {
      userAgent: e.AUDIT_USER_AGENT,
      crawlTimeLimitSeconds: e.AUDIT_CRAWL_TIME_LIMIT_SECONDS,
      jobDeadlineSeconds: e.AUDIT_JOB_DEADLINE_SECONDS,
      stalledIntervalMs: e.AUDIT_STALLED_INTERVAL_MS,
      maxStalledCount: e.AUDIT_MAX_STALLED_COUNT,
      politenessDelayMs: e.AUDIT_POLITENESS_DELAY_MS,
      sweepIntervalMs: e.AUDIT_SWEEP_INTERVAL_MS,
    },
    workerConcurrency: e.WORKER_CONCURRENCY,
  };
}

/** Injection token of the AppConfig object. */
export const APP_CONFIG = Symbol('APP_CONFIG');
