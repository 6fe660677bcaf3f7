import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import Redis from 'ioredis';
import { APP_CONFIG, AppConfig, ConfigError, metrics } from '@app/core';
import { redisConnectionOptions, redisTargetLabel } from './redis-connection';
import { REDIS } from './redis.token';

/** The one maxmemory-policy under which Redis never drops a key the service wrote. */
export const SAFE_MEMORY_POLICY = 'noeviction';

/** Redis's policies (the metric's label set); anything else is reported as `other`. */
const KNOWN_POLICIES = [
  'noeviction',
  'allkeys-lru',
  'allkeys-lfu',
  'allkeys-random',
  'volatile-lru',
  'volatile-lfu',
  'volatile-random',
  'volatile-ttl',
] as const;

/** How often a running process reads the policy again (also on every reconnection). */
export const MEMORY_POLICY_RECHECK_MS = 60_000;

export interface MemoryPolicyReading {
  /** maxmemory-policy as the server reports it (lower case). */
  policy: string;
  /** maxmemory in bytes (0: no limit). */
  maxmemory: number;
  /** Where it was read: `CONFIG GET`, or `INFO memory` where CONFIG is disabled (managed Redis). */
  source: 'config' | 'info';
  /** When it was read (ms since the epoch). */
  checkedAt: number;
}

/** What /health/ready and the home page show: the last reading, and whether it is safe. */
export interface MemoryPolicyStatus {
  /** The policy, or `unknown` before the first successful reading. */
  policy: string;
  /** true only for `noeviction`. */
  ok: boolean;
  maxmemory: number | null;
  source: MemoryPolicyReading['source'] | null;
  checked_at: string | null;
}

/** A reply error of the server (e.g. CONFIG renamed away or refused by an ACL), not a lost connection. */
function isReplyError(err: unknown): boolean {
  return (err as { name?: unknown } | null)?.name === 'ReplyError';
}

/** `maxmemory_policy` and `maxmemory` out of an `INFO memory` answer. */
export function parseInfoMemory(info: string): { policy: string; maxmemory: number } | null {
  const policy = /^maxmemory_policy:([^\r\n]+)/m.exec(info)?.[1]?.trim();
  if (!policy) return null;
  const max = Number(/^maxmemory:(\d+)/m.exec(info)?.[1] ?? 0);
  return { policy: policy.toLowerCase(), maxmemory: Number.isFinite(max) ? max : 0 };
}

/** The two commands the policy is read with (an ioredis client has them). */
export interface MemoryPolicySource {
  config(subcommand: 'GET', parameter: string): Promise<unknown>;
  info(section: 'memory'): Promise<string>;
}

/**
 * Reads Redis's eviction policy: `CONFIG GET` where allowed, else `INFO memory`'s
 * `maxmemory_policy` (CONFIG is renamed away or refused on most managed Redis). A lost
 * connection rejects (the caller treats the policy as not known yet).
 */
export async function readMemoryPolicy(redis: MemoryPolicySource): Promise<MemoryPolicyReading> {
  try {
    const policy = (await redis.config('GET', 'maxmemory-policy')) as string[];
    const max = (await redis.config('GET', 'maxmemory')) as string[];
    if (policy.length >= 2) {
      return {
        policy: String(policy[1]).toLowerCase(),
        maxmemory: Number(max[1] ?? 0) || 0,
        source: 'config',
        checkedAt: Date.now(),
      };
    }
  } catch (err) {
    if (!isReplyError(err)) throw err;
  }
  const parsed = parseInfoMemory(await redis.info('memory'));
  if (!parsed) throw new Error('INFO memory did not report maxmemory_policy');
  return { ...parsed, source: 'info', checkedAt: Date.now() };
}

/** The sentence that says what is wrong and what to set (start-up refusal, warning, readiness). */
export function memoryPolicyProblem(reading: MemoryPolicyReading, target: string): string {
  return (
    `Redis (${target}) has maxmemory-policy ${reading.policy}: when it reaches maxmemory it ` +
    'evicts keys, which silently breaks the per-minute limits, the research in-flight locks and ' +
    `the site-audit queue. Set maxmemory-policy ${SAFE_MEMORY_POLICY} (redis.conf ` +
    `"maxmemory-policy ${SAFE_MEMORY_POLICY}", CONFIG SET maxmemory-policy ${SAFE_MEMORY_POLICY}, ` +
    'or the managed service\'s parameter group); see docs/operations.md, "Redis memory policy".'
  );
}

/**
 * Redis's maxmemory-policy, as this process last read it (docs/reliability.md, "Redis memory
 * policy"). The API and the worker run `RedisMemoryPolicyWatch`, which reads it at start-up
 * (refusing to start in production unless it is `noeviction`, warning otherwise), then every
 * minute and after every reconnection (a Sentinel failover may land on a server with another
 * setting). Readiness and /metrics show the cached reading: no Redis round trip per probe.
 */
@Injectable()
export class RedisMemoryPolicy {
  private readonly logger = new Logger('RedisMemoryPolicy');
  private last: MemoryPolicyReading | null = null;
  /** The policy last logged about, so a change is logged once. */
  private logged: string | null = null;

  constructor(
    @Inject(REDIS) private readonly redis: MemoryPolicySource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    setPolicyGauge(null);
  }

  /** The last reading, or null before the first one. */
  reading(): MemoryPolicyReading | null {
    return this.last;
  }

  status(): MemoryPolicyStatus {
    const r = this.last;
    return {
      policy: r?.policy ?? 'unknown',
      ok: r?.policy === SAFE_MEMORY_POLICY,
      maxmemory: r?.maxmemory ?? null,
      source: r?.source ?? null,
      checked_at: r ? new Date(r.checkedAt).toISOString() : null,
    };
  }

  /** A known policy that evicts (null while unknown or safe). */
  evicting(): MemoryPolicyReading | null {
    return this.last && this.last.policy !== SAFE_MEMORY_POLICY ? this.last : null;
  }

  /** The problem sentence for the current reading, or null when it is safe or unknown. */
  problem(): string | null {
    const r = this.evicting();
    return r ? memoryPolicyProblem(r, redisTargetLabel(this.config)) : null;
  }

  /**
   * Reads the policy now and updates the gauges; logs once per change of policy (a warning
   * for an evicting one in development, an error in production, info when it becomes safe).
   * Rejects when Redis cannot be asked (the last reading is kept).
   */
  async refresh(): Promise<MemoryPolicyReading> {
    const reading = await readMemoryPolicy(this.redis);
    this.last = reading;
    setPolicyGauge(reading);
    if (reading.policy !== this.logged) {
      const first = this.logged === null;
      this.logged = reading.policy;
      const problem = this.problem();
      if (problem) {
        if (this.config.production) this.logger.error({ policy: reading.policy }, problem);
        else
          this.logger.warn({ policy: reading.policy }, `${problem} (development: starting anyway)`);
      } else if (!first) {
        this.logger.log(`Redis maxmemory-policy is ${SAFE_MEMORY_POLICY} again`);
      }
    }
    return reading;
  }

  /**
   * The start-up check: in production an evicting policy refuses the start (ConfigError: the
   * process prints the message and exits 1); in development it is a warning. A Redis that
   * cannot be asked yet does not stop the start: the periodic reading checks it later.
   */
  async checkAtStartup(): Promise<void> {
    try {
      await this.refresh();
    } catch (err) {
      this.logger.warn(
        { reason: (err as Error)?.message },
        'Could not read the Redis maxmemory-policy at start-up; it is checked again every minute',
      );
      return;
    }
    const problem = this.problem();
    if (problem && this.config.production) throw new ConfigError([problem]);
  }
}

/**
 * The worker's pre-flight, before its queues' workers exist (they start taking jobs as soon as
 * the Nest context initializes): in production, an evicting policy throws ConfigError on a
 * connection of its own, closed at once. An unreachable Redis does not throw here (the
 * worker's start-up ping names it).
 */
export async function refuseEvictingRedis(config: AppConfig): Promise<void> {
  if (!config.production) return; // development: RedisMemoryPolicyWatch warns
  const { url, ...where } = redisConnectionOptions(config);
  const options = {
    ...where,
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    commandTimeout: config.redisCommandTimeoutMs,
    connectTimeout: config.redisCommandTimeoutMs,
    retryStrategy: () => null,
  };
  const redis = url ? new Redis(url, options) : new Redis(options);
  redis.on('error', () => undefined);
  let reading: MemoryPolicyReading;
  try {
    await redis.connect();
    reading = await readMemoryPolicy(redis);
  } catch {
    return;
  } finally {
    redis.disconnect();
  }
  if (reading.policy !== SAFE_MEMORY_POLICY) {
    throw new ConfigError([memoryPolicyProblem(reading, redisTargetLabel(config))]);
  }
}

/** `redis_maxmemory_policy{policy}` (1 for the current one) and `redis_maxmemory_bytes`. */
function setPolicyGauge(reading: MemoryPolicyReading | null): void {
  metrics.redisMemoryPolicy.reset();
  const policy = reading
    ? (KNOWN_POLICIES as readonly string[]).includes(reading.policy)
      ? reading.policy
      : 'other'
    : 'unknown';
  metrics.redisMemoryPolicy.set({ policy }, 1);
  if (reading) metrics.redisMaxmemoryBytes.set(reading.maxmemory);
}

/**
 * Runs the checks of RedisMemoryPolicy in the API and worker processes (not in the CLIs):
 * at start-up (before the process serves or takes jobs), every MEMORY_POLICY_RECHECK_MS and
 * after every reconnection to Redis.
 */
@Injectable()
export class RedisMemoryPolicyWatch implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer: NodeJS.Timeout | null = null;
  private readonly onReady = () => void this.policy.refresh().catch(() => undefined);

  constructor(
    private readonly policy: RedisMemoryPolicy,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.policy.checkAtStartup();
    this.timer = setInterval(this.onReady, MEMORY_POLICY_RECHECK_MS);
    this.timer.unref();
    this.redis.on('ready', this.onReady);
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.redis.off('ready', this.onReady);
  }
}
