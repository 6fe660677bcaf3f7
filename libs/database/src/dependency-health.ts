import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { metrics } from '@app/core';
import { REDIS } from '@app/redis';
import { PostgresPing } from './postgres-ping';

export type Dependency = 'postgres' | 'redis';

/** How often a dependency seen down is probed until it answers again. */
const DEPENDENCY_PROBE_INTERVAL_MS = 200;
/** The Retry-After (seconds) of a request refused because a dependency is down. */
export const DEPENDENCY_RETRY_AFTER_SECONDS = 2;

/** ioredis's rejections when it cannot reach the server (never a server's reply error). */
const REDIS_UNREACHABLE =
  /^(Connection is closed\.|Command timed out|Stream isn't writeable|Reached the max retries per request limit)/;
/** Socket-level error codes (node) of a lost or refused PostgreSQL connection. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/**
 * pg's own messages for a lost connection, a connect timeout or a dead client. Not pg-pool's
 * "timeout exceeded when trying to connect": that is a wait for a free slot of our own pool
 * (every slot busy), see `busyDatabase`; a connection attempt that times out says
 * "Connection terminated due to connection timeout".
 */
const PG_UNREACHABLE =
  /^(Connection terminated|Client has encountered a connection error|Client was closed and is not queryable|Cannot use a pool after calling end)/;
/** pg-pool's rejection of a wait for a free pool slot longer than `connectionTimeoutMillis`. */
const POOL_WAIT_TIMEOUT = /^timeout exceeded when trying to connect/;

/**
 * Why PostgreSQL, while answering, did not run a statement in time: `query_canceled`
 * (SQLSTATE 57014: statement_timeout, or a cancel), `lock_not_available` (55P03:
 * lock_timeout), `pool_wait` (no free slot of this process's pool within
 * DB_CONNECT_TIMEOUT_MS). Not an outage: PostgreSQL is up, it is busy or a lock is held
 * (docs/reliability.md, "Timeouts").
 */
export type DatabaseBusy = 'query_canceled' | 'lock_not_available' | 'pool_wait';

/**
 * Which `DatabaseBusy` an error is, or null. Looks through TypeORM's QueryFailedError
 * (`driverError`) and `cause` chains, like `unreachableDependency`.
 */
export function busyDatabase(err: unknown, depth = 0): DatabaseBusy | null {
  if (typeof err !== 'object' || err === null || depth > 4) return null;
  const e = err as { message?: unknown; code?: unknown; driverError?: unknown; cause?: unknown };
  if (e.code === '57014') return 'query_canceled';
  if (e.code === '55P03') return 'lock_not_available';
  if (typeof e.message === 'string' && POOL_WAIT_TIMEOUT.test(e.message)) return 'pool_wait';
  return busyDatabase(e.driverError, depth + 1) ?? busyDatabase(e.cause, depth + 1);
}

/**
 * Which dependency an error says is unreachable, or null when it is not such an error (a
 * bad statement, a constraint, a Redis reply error are bugs or rules, not outages). Looks
 * through TypeORM's QueryFailedError (`driverError`) and `cause` chains.
 */
export function unreachableDependency(err: unknown, depth = 0): Dependency | null {
  if (typeof err !== 'object' || err === null || depth > 4) return null;
  const e = err as {
    name?: unknown;
    message?: unknown;
    code?: unknown;
    driverError?: unknown;
    cause?: unknown;
  };
  const message = typeof e.message === 'string' ? e.message : '';
  if (e.name === 'MaxRetriesPerRequestError' || REDIS_UNREACHABLE.test(message)) return 'redis';
  if (typeof e.code === 'string') {
    if (SOCKET_CODES.has(e.code)) return 'postgres';
    // SQLSTATE class 08 (connection exception), 57P01-57P03 (shutdown, cannot connect now),
    // 53300 (too many connections), 25006 (a write reached a node that is a standby now: the
    // old primary demoted by Patroni before HAProxy cut the pooled connection; nothing was
    // committed, the retry reaches the new primary — docs/decisions/0003-primary-failover.md).
    if (
      /^08[0-9A-Z]{3}$/.test(e.code) ||
      /^57P0[1-3]$/.test(e.code) ||
      e.code === '53300' ||
      e.code === '25006'
    )
      return 'postgres';
  }
  if (PG_UNREACHABLE.test(message)) return 'postgres';
  return (
    unreachableDependency(e.driverError, depth + 1) ?? unreachableDependency(e.cause, depth + 1)
  );
}

/**
 * Redis's refusal of a write at maxmemory under maxmemory-policy noeviction ("OOM command not
 * allowed when used memory > 'maxmemory'."), also when a script's first write is refused.
 */
const REDIS_OOM = /\bOOM command not allowed\b/;
/** At most one "Redis refuses writes" log line per this interval (the rest are counted). */
const REDIS_FULL_LOG_INTERVAL_MS = 60_000;

/**
 * Whether an error is Redis refusing a write because it is full (maxmemory reached with
 * noeviction). Not an outage (Redis answers, reads work) but no request that needs a write
 * can be served: the per-minute limit fails closed, a lock or an enqueue is refused. Looks
 * through `cause` chains like unreachableDependency.
 */
export function redisOutOfMemory(err: unknown, depth = 0): boolean {
  if (typeof err !== 'object' || err === null || depth > 4) return false;
  const e = err as { message?: unknown; cause?: unknown };
  if (typeof e.message === 'string' && REDIS_OOM.test(e.message)) return true;
  return redisOutOfMemory(e.cause, depth + 1);
}

interface State {
  down: boolean;
  since: number;
  failedRequests: number;
  probe?: NodeJS.Timeout;
  probing: boolean;
}

/**
 * What this process last saw of PostgreSQL and Redis. A request that failed because one of
 * them is unreachable (`requestFailed`), or a Redis connection error, marks it down: one log
 * line and `dependency_up{dependency} 0`; from then on it is probed every
 * DEPENDENCY_PROBE_INTERVAL_MS and the first answer marks it up again: one log line with
 * the number of requests that failed meanwhile, and the gauge back to 1. No stack per
 * failed request: the exception filter answers those with 500 SERVER_ERROR + Retry-After.
 */
@Injectable()
export class DependencyHealth implements OnApplicationShutdown {
  private readonly logger = new Logger('Dependencies');
  private readonly states: Record<Dependency, State> = {
    postgres: { down: false, since: 0, failedRequests: 0, probing: false },
    redis: { down: false, since: 0, failedRequests: 0, probing: false },
  };
  private closing = false;
  /** Redis refusing writes (OOM): when the last line was logged, and refusals since. */
  private redisFull = { loggedAt: 0, refusedSinceLog: 0 };

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly postgresPing: PostgresPing,
  ) {
    metrics.dependencyUp.set({ dependency: 'postgres' }, 1);
    metrics.dependencyUp.set({ dependency: 'redis' }, 1);
    // Without a listener ioredis prints every failed reconnection attempt to stderr.
    redis.on('error', (err: Error) => this.markDown('redis', err));
    redis.on('ready', () => this.markUp('redis'));
  }

  isDown(dependency: Dependency): boolean {
    return this.states[dependency].down;
  }

  /**
   * A request failed with `err`: when it says a dependency is unreachable, counts it (and
   * marks the dependency down) and answers which one; when it is Redis refusing a write at
   * maxmemory, counts it (`redis_oom_refusals_total`, one log line a minute at most) and
   * answers 'redis' without marking it down (it still answers); else null.
   */
  requestFailed(err: unknown): Dependency | null {
    const dependency = unreachableDependency(err);
    if (!dependency) {
      if (!redisOutOfMemory(err)) return null;
      this.redisRefusedWrite(err);
      return 'redis';
    }
    this.markDown(dependency, err);
    this.states[dependency].failedRequests++;
    return dependency;
  }

  /**
   * A request failed with `err`: when it says PostgreSQL is busy (a statement or lock
   * timeout, no free pool slot), counts it in `db_busy_total{reason}` and answers why; else
   * null. A statement or lock timeout never marks PostgreSQL down: it answered. A pool wait
   * says only that every slot of our pool is taken, by busy statements or by connections
   * gone silent (a network black hole): PostgreSQL is then asked on a connection of its own
   * (PostgresPing, at most one ping at a time) and marked down only if that fails.
   */
  requestBusy(err: unknown): DatabaseBusy | null {
    const reason = busyDatabase(err);
    if (!reason) return null;
    metrics.dbBusy.inc({ reason });
    if (reason === 'pool_wait' && !this.states.postgres.down && !this.closing) {
      this.postgresPing.ping().catch((pingErr: unknown) => this.markDown('postgres', pingErr));
    }
    return reason;
  }

  markDown(dependency: Dependency, err?: unknown): void {
    const state = this.states[dependency];
    if (state.down || this.closing) return;
    state.down = true;
    state.since = Date.now();
    state.failedRequests = 0;
    metrics.dependencyUp.set({ dependency }, 0);
    this.logger.error(
      { dependency, reason: describe(err) },
      `Dependency down: ${dependency} (answering 500 SERVER_ERROR with Retry-After until it is back)`,
    );
    state.probe = setInterval(() => void this.probe(dependency), DEPENDENCY_PROBE_INTERVAL_MS);
    state.probe.unref();
  }

  /** One line when Redis starts refusing writes, then at most one a minute with the count. */
  private redisRefusedWrite(err: unknown): void {
    metrics.redisOomRefusals.inc();
    const full = this.redisFull;
    full.refusedSinceLog++;
    const now = Date.now();
    if (now - full.loggedAt < REDIS_FULL_LOG_INTERVAL_MS) return;
    this.logger.error(
      { dependency: 'redis', reason: describe(err), refused_requests: full.refusedSinceLog },
      'Redis refuses writes: maxmemory reached (answering 500 SERVER_ERROR with Retry-After); free memory or raise maxmemory',
    );
    full.loggedAt = now;
    full.refusedSinceLog = 0;
  }

  markUp(dependency: Dependency): void {
    const state = this.states[dependency];
    if (!state.down) return;
    state.down = false;
    if (state.probe) clearInterval(state.probe);
    state.probe = undefined;
    metrics.dependencyUp.set({ dependency }, 1);
    this.logger.warn(
      { dependency, failed_requests: state.failedRequests, down_ms: Date.now() - state.since },
      `Dependency back: ${dependency}`,
    );
  }

  onApplicationShutdown(): void {
    this.closing = true;
    for (const state of Object.values(this.states)) if (state.probe) clearInterval(state.probe);
  }

  private async probe(dependency: Dependency): Promise<void> {
    const state = this.states[dependency];
    if (state.probing || !state.down) return;
    state.probing = true;
    try {
      if (dependency === 'redis') await this.redis.ping();
      else await this.dataSource.query('SELECT 1');
      this.markUp(dependency);
    } catch {
      // still down
    } finally {
      state.probing = false;
    }
  }
}

/** A short, secret-free reason: the error's code or name and first line. */
function describe(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const e = err as { code?: unknown; name?: unknown; message?: unknown };
  const first = typeof e.message === 'string' ? e.message.split('\n')[0].slice(0, 200) : '';
  const label = typeof e.code === 'string' ? e.code : typeof e.name === 'string' ? e.name : '';
  return [label, first].filter(Boolean).join(': ') || undefined;
}
