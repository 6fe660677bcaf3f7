import * as ipaddr from 'ipaddr.js';
import { parseEncryptionKey } from '../crypto/secret-box';
import { z } from 'zod';
import {
  RANK_COLLECTION_ENV,
  RankCollectionConfig,
  rankCollectionConfig,
} from './rank-collection.config';

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

/** Delays before webhook retries 1-7: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (docs/webhooks.md). */
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE_MS: readonly number[] = [
  5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
];

/**
 * TRUST_PROXY: which proxies' X-Forwarded-For the client address (per-IP throttles, logs)
 * is read from, in Express's own forms: unset or `false` (the socket's address), a hop count
 * (1-10), or a comma-separated list of addresses, CIDR ranges and the names `loopback`,
 * `linklocal`, `uniquelocal`. `true` (trust every hop, so any client could choose its
 * address) is refused.
 */
const TRUST_PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const trustProxy = z
  .string()
  .optional()
  .transform((v, ctx): false | number | string[] => {
    const value = (v ?? '').trim();
    if (value === '' || value.toLowerCase() === 'false') return false;
    if (/^\d+$/.test(value) && Number(value) >= 1 && Number(value) <= 10) return Number(value);
    const entries = value.split(',').map((e) => e.trim());
    const bad = entries.filter((e) => !TRUST_PROXY_NAMES.has(e) && !isAddress(e) && !isCidr(e));
    if (bad.length === 0 && entries.length > 0) return entries;
    ctx.addIssue({
      code: 'custom',
      message:
        'must be false, a hop count from 1 to 10, or a comma-separated list of addresses, CIDR ranges, loopback, linklocal, uniquelocal (true is not accepted: any client could then choose its address)',
    });
    return z.NEVER;
  });

/** A dotted-quad IPv4 or an IPv6 address (not the legacy short IPv4 forms). */
function isAddress(value: string): boolean {
  return ipaddr.IPv4.isValidFourPartDecimal(value) || ipaddr.IPv6.isValid(value);
}

function isCidr(value: string): boolean {
  const [address] = value.split('/');
  if (!isAddress(address)) return false;
  try {
    ipaddr.parseCIDR(value);
    return true;
  } catch {
    return false;
  }
}

/** `host:port,host:port` (IPv6 in brackets) → the nodes; null when any entry is malformed. */
function parseHostPorts(value: string): Array<{ host: string; port: number }> | null {
  const nodes: Array<{ host: string; port: number }> = [];
  for (const raw of value.split(',')) {
    const entry = raw.trim();
    const m = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(entry);
    if (!m) return null;
    const port = Number(m[2]);
    if (port < 1 || port > 65535) return null;
    nodes.push({ host: m[1].replace(/^\[(.*)\]$/, '$1'), port });
  }
  return nodes.length > 0 ? nodes : null;
}

const KEY_FORMAT =
  'must be 32 random bytes, as base64 (44 characters) or hex (64 characters); e.g. `openssl rand -base64 32`';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const schema = z
  .object({
    NODE_ENV: z.string().optional(),
    PORT: int(1, 65535, 3000),
    DATABASE_URL: url(['postgres:', 'postgresql:'], 'postgres://postgres@127.0.0.1:5432/seo_api'),
    REDIS_URL: url(['redis:', 'rediss:'], 'redis://127.0.0.1:6379'),
    DATABASE_READ_URL: url(['postgres:', 'postgresql:']),
    DATABASE_READ_MAX_LAG_MS: int(0, 3_600_000, 5000),
    REDIS_SENTINELS: z
      .string()
      .optional()
      .transform((v, ctx) => {
        if (v === undefined || v.trim() === '') return null;
        const nodes = parseHostPorts(v);
        if (!nodes) {
          ctx.addIssue({
            code: 'custom',
            message:
              'must be a comma-separated list of host:port (e.g. 10.0.0.5:26379,10.0.0.6:26379; IPv6 as [::1]:26379)',
          });
          return z.NEVER;
        }
        return nodes;
      }),
    REDIS_SENTINEL_MASTER: z
      .string()
      .optional()
      .transform((v) => (v === undefined || v === '' ? 'seo' : v))
      .pipe(z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'must be 1-64 of A-Z a-z 0-9 _ . -')),
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
    TRUST_PROXY: trustProxy,
    KEY_CACHE_TTL_MS: int(0, 5000, 5000),
    DB_POOL_SIZE: int(1, 200, 10),
    // ---- dependency outages (docs/reliability.md) ----
    REDIS_COMMAND_TIMEOUT_MS: int(50, 60_000, 2000),
    DB_CONNECT_TIMEOUT_MS: int(50, 120_000, 10_000),
    // ---- timeouts (docs/reliability.md, "Timeouts") ----
    DB_STATEMENT_TIMEOUT_MS: int(100, 600_000, 10_000),
    DB_LOCK_TIMEOUT_MS: int(50, 600_000, 3_000),
    DB_BULK_STATEMENT_TIMEOUT_MS: int(1_000, 3_600_000, 120_000),
    HTTP_HEADERS_TIMEOUT_MS: int(1_000, 300_000, 10_000),
    HTTP_REQUEST_TIMEOUT_MS: int(1_000, 600_000, 30_000),
    HTTP_KEEP_ALIVE_TIMEOUT_MS: int(1_000, 600_000, 5_000),
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
    // ---- your-data: GSC partitions and retention (docs/your-data.md) ----
    GSC_MAINTENANCE_INTERVAL_MS: int(1000, 86_400_000, 21_600_000),
    GSC_RETENTION_MONTHS: int(1, 120, 16),
    GSC_PARTITIONS_AHEAD: int(0, 24, 2),
    ...RANK_COLLECTION_ENV,
    // ---- operations (docs/operations.md) ----
    METRICS_TOKEN: z
      .string()
      .optional()
      .transform((v) => (v === undefined || v === '' ? undefined : v))
      .pipe(z.string().min(16, 'must be at least 16 characters').optional()),
    WORKER_METRICS_PORT: int(0, 65535, 0),
    QUEUE_DASHBOARD_READ_ONLY: bool('QUEUE_DASHBOARD_READ_ONLY', true),
    LOG_FORMAT: z
      .string()
      .optional()
      .transform((v) => (v === undefined || v === '' ? 'json' : v.trim().toLowerCase()))
      .pipe(z.enum(['json', 'pretty'])),
    // ---- long-poll GET /jobs/{id}?wait= (docs/site-audit-jobs.md) ----
    JOBS_WAIT_MAX_PER_ACCOUNT: int(0, 1_000_000, 10),
    JOBS_WAIT_MAX_TOTAL: int(0, 1_000_000, 5_000),
    JOBS_WAIT_RECHECK_MS: int(100, 60_000, 5_000),
    // ---- site-audit webhooks (docs/webhooks.md) ----
    WEBHOOK_RETRY_SCHEDULE_MS: z
      .string()
      .optional()
      .transform((v, ctx) => {
        if (v === undefined || v.trim() === '') return DEFAULT_WEBHOOK_RETRY_SCHEDULE_MS;
        const parts = v.split(',').map((p) => p.trim());
        if (
          parts.length > 20 ||
          parts.some((p) => !/^\d{1,9}$/.test(p) || Number(p) < 1 || Number(p) > 86_400_000)
        ) {
          ctx.addIssue({
            code: 'custom',
            message:
              'must be 1-20 comma-separated delays in milliseconds, each from 1 to 86400000 (e.g. 5000,300000)',
          });
          return z.NEVER;
        }
        return parts.map(Number);
      }),
    WEBHOOK_TIMEOUT_MS: int(100, 60_000, 10_000),
    WEBHOOK_CONCURRENCY: int(1, 256, 10),
    // ---- OAuth dynamic client registration (docs/oauth.md) ----
    OAUTH_REGISTRATIONS_PER_ADDRESS: int(1, 10_000, 30),
    OAUTH_REGISTRATIONS_PER_HOUR: int(1, 1_000_000, 1_000),
    OAUTH_UNUSED_CLIENT_TTL_SECONDS: int(60, 30 * 86_400, 86_400),
    // ---- secrets at rest (docs/webhooks.md, "Secrets at rest") ----
    SECRETS_ENCRYPTION_KEY: z
      .string()
      .optional()
      .transform((v, ctx) => {
        if (v === undefined || v.trim() === '') return null;
        const key = parseEncryptionKey(v);
        if (!key) {
          ctx.addIssue({ code: 'custom', message: KEY_FORMAT });
          return z.NEVER;
        }
        return key;
      }),
    SECRETS_ENCRYPTION_KEYS_OLD: z
      .string()
      .optional()
      .transform((v, ctx) => {
        const keys: Buffer[] = [];
        for (const part of (v ?? '').split(',').map((p) => p.trim())) {
          if (part === '') continue;
          const key = parseEncryptionKey(part);
          if (!key) {
            ctx.addIssue({ code: 'custom', message: `each key: ${KEY_FORMAT}` });
            return z.NEVER;
          }
          keys.push(key);
        }
        return keys;
      }),
  })
  .superRefine((env, ctx) => {
    if (env.DB_LOCK_TIMEOUT_MS > env.DB_STATEMENT_TIMEOUT_MS) {
      ctx.addIssue({
        code: 'custom',
        path: ['DB_LOCK_TIMEOUT_MS'],
        message:
          'must not exceed DB_STATEMENT_TIMEOUT_MS (the statement timeout bounds a lock wait too)',
      });
    }
    if (env.DB_BULK_STATEMENT_TIMEOUT_MS < env.DB_STATEMENT_TIMEOUT_MS) {
      ctx.addIssue({
        code: 'custom',
        path: ['DB_BULK_STATEMENT_TIMEOUT_MS'],
        message:
          'must be at least DB_STATEMENT_TIMEOUT_MS (it raises the bound for ingestion batches)',
      });
    }
    if (env.HTTP_HEADERS_TIMEOUT_MS > env.HTTP_REQUEST_TIMEOUT_MS) {
      ctx.addIssue({
        code: 'custom',
        path: ['HTTP_HEADERS_TIMEOUT_MS'],
        message: 'must not exceed HTTP_REQUEST_TIMEOUT_MS (the headers are part of the request)',
      });
    }
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
  /**
   * DATABASE_READ_URL / DATABASE_READ_MAX_LAG_MS: a hot standby for the your-data reads, used
   * while it answers and replays within maxLagMs (docs/your-data.md, "Read standby").
   */
  databaseRead: { url: string; maxLagMs: number } | null;
  /**
   * REDIS_SENTINELS: when set, every Redis connection goes through these Sentinels to the
   * master named REDIS_SENTINEL_MASTER, and REDIS_URL is ignored (docs/reliability.md).
   */
  redisSentinels: { nodes: Array<{ host: string; port: number }>; master: string } | null;
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
  /** TRUST_PROXY, as Express's `trust proxy` setting takes it (false: the socket's address). */
  trustProxy: false | number | string[];
  keyCacheTtlMs: number;
  dbPoolSize: number;
  /** Bound on any command of the shared Redis client, queued or sent (ms). */
  redisCommandTimeoutMs: number;
  /**
   * Bound on getting a PostgreSQL connection: connecting, or waiting for a pool slot under a
   * burst (ms). A stopped server refuses at once; this bounds an unreachable one.
   */
  dbConnectTimeoutMs: number;
  /**
   * Bounds of the API's statements (docs/reliability.md, "Timeouts"): `statementTimeoutMs`
   * (DB_STATEMENT_TIMEOUT_MS) and `lockTimeoutMs` (DB_LOCK_TIMEOUT_MS) are session settings
   * of every API connection; `bulkStatementTimeoutMs` (DB_BULK_STATEMENT_TIMEOUT_MS) replaces
   * both inside the admin ingestion transactions (`bulkTransaction`). The worker and the
   * CLIs run without them.
   */
  dbTimeouts: { statementTimeoutMs: number; lockTimeoutMs: number; bulkStatementTimeoutMs: number };
  /**
   * The API's HTTP server (docs/reliability.md, "Timeouts"): the whole header block within
   * `headersTimeoutMs`, the whole request (headers and body) within `requestTimeoutMs`, an idle
   * keep-alive connection closed after `keepAliveTimeoutMs`.
   */
  httpTimeouts: { headersTimeoutMs: number; requestTimeoutMs: number; keepAliveTimeoutMs: number };
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
  /** Search Console fact partitions and retention, run by the worker (docs/your-data.md, "Retention"). */
  gscMaintenance: {
    /** GSC_MAINTENANCE_INTERVAL_MS: how often the worker creates partitions ahead and applies retention. */
    intervalMs: number;
    /** GSC_RETENTION_MONTHS: months kept before the current one (Search Console keeps 16). */
    retentionMonths: number;
    /** GSC_PARTITIONS_AHEAD: months after the current one whose partitions are created ahead. */
    partitionsAhead: number;
  };
  /** Rank collection by the worker (rank-collection.config.ts). */
  rankCollection: RankCollectionConfig;
  /** METRICS_TOKEN: a second bearer token accepted by GET /metrics (besides ADMIN_TOKEN). */
  metricsToken: string | undefined;
  /** WORKER_METRICS_PORT: the worker's /metrics HTTP port; 0 (default) = no metrics server. */
  workerMetricsPort: number;
  /** QUEUE_DASHBOARD_READ_ONLY: /admin/queues shows the queues without retry/remove/clean actions (default true). */
  queueDashboardReadOnly: boolean;
  /** LOG_FORMAT: json (default; one JSON object per line) or pretty (readable one-line logs, `npm start`). */
  logFormat: 'json' | 'pretty';
  /** Long-poll of GET /jobs/{job_id}?wait=N (docs/site-audit-jobs.md, "Waiting for a job"). */
  jobsWait: {
    /** JOBS_WAIT_MAX_PER_ACCOUNT: waiting requests one account may hold on one API process. */
    maxPerAccount: number;
    /** JOBS_WAIT_MAX_TOTAL: waiting requests one API process holds in total. */
    maxTotal: number;
    /** JOBS_WAIT_RECHECK_MS: re-read interval of a waiting request while the Redis subscription is down. */
    recheckMs: number;
  };
  /** Site-audit completion webhooks (docs/webhooks.md). */
  webhooks: {
    /** WEBHOOK_RETRY_SCHEDULE_MS: delay before each retry; after the last one the delivery fails. */
    retryScheduleMs: readonly number[];
    /** WEBHOOK_TIMEOUT_MS: one attempt (connect, send, answer) gives up after this. */
    timeoutMs: number;
    /** WEBHOOK_CONCURRENCY: deliveries one worker process sends at the same time. */
    concurrency: number;
  };
  /** NODE_ENV is `production`. */
  production: boolean;
  /** Keys of the secrets at rest (never logged). */
  secretsEncryption: {
    /** SECRETS_ENCRYPTION_KEY: new values are sealed with it; null: stored as they are. */
    current: Buffer | null;
    /** SECRETS_ENCRYPTION_KEYS_OLD: still read (values sealed before a key rotation). */
    old: Buffer[];
  };
  /** RFC 7591 registrations of the OAuth server (docs/oauth.md, "Registration limits"). */
  oauthRegistrations: {
    /** OAUTH_REGISTRATIONS_PER_ADDRESS: per clock hour and IPv4 address or IPv6 /64. */
    perAddress: number;
    /** OAUTH_REGISTRATIONS_PER_HOUR: per clock hour over all addresses. */
    perHour: number;
    /** OAUTH_UNUSED_CLIENT_TTL_SECONDS: a client never used for an authorization is purged after this. */
    unusedTtlSeconds: number;
  };
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
    databaseRead: e.DATABASE_READ_URL
      ? { url: e.DATABASE_READ_URL, maxLagMs: e.DATABASE_READ_MAX_LAG_MS }
      : null,
    redisSentinels: e.REDIS_SENTINELS
      ? { nodes: e.REDIS_SENTINELS, master: e.REDIS_SENTINEL_MASTER }
      : null,
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
    trustProxy: e.TRUST_PROXY,
    keyCacheTtlMs: e.KEY_CACHE_TTL_MS,
    dbPoolSize: e.DB_POOL_SIZE,
    redisCommandTimeoutMs: e.REDIS_COMMAND_TIMEOUT_MS,
    dbConnectTimeoutMs: e.DB_CONNECT_TIMEOUT_MS,
    dbTimeouts: {
      statementTimeoutMs: e.DB_STATEMENT_TIMEOUT_MS,
      lockTimeoutMs: e.DB_LOCK_TIMEOUT_MS,
      bulkStatementTimeoutMs: e.DB_BULK_STATEMENT_TIMEOUT_MS,
    },
    httpTimeouts: {
      headersTimeoutMs: e.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: e.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    },
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
    gscMaintenance: {
      intervalMs: e.GSC_MAINTENANCE_INTERVAL_MS,
      retentionMonths: e.GSC_RETENTION_MONTHS,
      partitionsAhead: e.GSC_PARTITIONS_AHEAD,
    },
    rankCollection: rankCollectionConfig(e),
    metricsToken: e.METRICS_TOKEN,
    workerMetricsPort: e.WORKER_METRICS_PORT,
    queueDashboardReadOnly: e.QUEUE_DASHBOARD_READ_ONLY,
    logFormat: e.LOG_FORMAT,
    jobsWait: {
      maxPerAccount: e.JOBS_WAIT_MAX_PER_ACCOUNT,
      maxTotal: e.JOBS_WAIT_MAX_TOTAL,
      recheckMs: e.JOBS_WAIT_RECHECK_MS,
    },
    webhooks: {
      retryScheduleMs: e.WEBHOOK_RETRY_SCHEDULE_MS,
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      concurrency: e.WEBHOOK_CONCURRENCY,
    },
    production: e.NODE_ENV === 'production',
    secretsEncryption: {
      current: e.SECRETS_ENCRYPTION_KEY,
      old: e.SECRETS_ENCRYPTION_KEYS_OLD,
    },
    oauthRegistrations: {
      perAddress: e.OAUTH_REGISTRATIONS_PER_ADDRESS,
      perHour: e.OAUTH_REGISTRATIONS_PER_HOUR,
      unusedTtlSeconds: e.OAUTH_UNUSED_CLIENT_TTL_SECONDS,
    },
  };
}

/** Injection token of the AppConfig object. */
export const APP_CONFIG = Symbol('APP_CONFIG');
