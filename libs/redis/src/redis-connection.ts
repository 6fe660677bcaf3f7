import { RedisOptions, SentinelConnector } from 'ioredis';
import type { AppConfig } from '@app/core';

/** ioredis options plus BullMQ's `url` (BullMQ passes `url` as ioredis's first argument). */
export type RedisConnectionOptions = RedisOptions & { url?: string };

type RedisTarget = Pick<AppConfig, 'redisUrl' | 'redisSentinels' | 'redisCommandTimeoutMs'>;

/** A `READONLY` reply: the connection is on a replica (an old master demoted by the Sentinels). */
export function readonlyReconnect(err: Error): 2 | false {
  return err.message.startsWith('READONLY') ? 2 : false;
}

/**
 * ioredis's SentinelConnector with one fix. Its `failoverDetector` (the `+switch-master`
 * subscription of a connection) outlives the connection: when the master dies, the detector
 * of the dead connection is still listening while the client asks the Sentinels for the new
 * master, and when the switch is announced it "disconnects" the connector, which cancels that
 * reconnection for good (status `end`, every command then fails with "Connection is closed."
 * until a restart). The window is one Sentinel query: milliseconds, or up to the Sentinel
 * timeout with a silent Sentinel (BullMQ's connections died that way in the failover test).
 * So a (re)connection first drops the previous connection's detector; the new connection
 * subscribes its own once it is up.
 */
export class FailoverSafeSentinelConnector extends SentinelConnector {
  /** ioredis constructs a custom connector with the client's options. */
  constructor(options: unknown) {
    super(options as ConstructorParameters<typeof SentinelConnector>[0]);
  }

  override connect(...args: Parameters<SentinelConnector['connect']>) {
    const self = this as unknown as { failoverDetector: { cleanup(): void } | null };
    self.failoverDetector?.cleanup();
    self.failoverDetector = null;
    return super.connect(...args);
  }
}

/** Asking the Sentinels again after all failed: every 100 ms, 200 ms, ... at most every second. */
function sentinelRetry(times: number): number {
  return Math.min(times * 100, 1000);
}

/**
 * Where every Redis connection of a process goes, as one set of ioredis options: REDIS_URL,
 * or — with REDIS_SENTINELS — the current master of REDIS_SENTINEL_MASTER as the Sentinels
 * name it (REDIS_URL is then ignored as a whole, its password included). Used by the shared
 * client (and so its duplicates: pub/sub subscribers), BullMQ's queues, workers and blocking
 * connections, and the queue dashboard. Unset, it is `{ url }`, as before Sentinel support.
 *
 * Through Sentinel a connection follows a failover without a restart: ioredis asks the
 * Sentinels for the master on every (re)connection and checks the server's role before using
 * it (`role: 'master'`), `failoverDetector` subscribes to their `+switch-master` so it
 * reconnects as soon as a new master is elected rather than when the old one's socket finally
 * fails (a partitioned or frozen master), and a `READONLY` answer (the old master came back as
 * a replica and still holds the connection) makes it reconnect and send the command again.
 * `FailoverSafeSentinelConnector` keeps a late `+switch-master` from cancelling a
 * reconnection. A Sentinel that accepts connections but does not answer is skipped after the command timeout
 * (`sentinelCommandTimeout`), one that cannot be reached after `connectTimeout`, instead of
 * holding up the reconnection (ioredis's defaults: forever and 10 s).
 */
export function redisConnectionOptions(config: RedisTarget): RedisConnectionOptions {
  const sentinels = config.redisSentinels;
  if (!sentinels) return { url: config.redisUrl };
  return {
    sentinels: sentinels.nodes,
    name: sentinels.master,
    role: 'master',
    failoverDetector: true,
    Connector: FailoverSafeSentinelConnector,
    sentinelRetryStrategy: sentinelRetry,
    sentinelCommandTimeout: config.redisCommandTimeoutMs,
    connectTimeout: Math.max(config.redisCommandTimeoutMs, 1000),
    reconnectOnError: readonlyReconnect,
  };
}

/** Where Redis is configured, for messages (never a password). */
export function redisTargetLabel(config: Pick<AppConfig, 'redisUrl' | 'redisSentinels'>): string {
  const s = config.redisSentinels;
  if (s) {
    const nodes = s.nodes.map(
      (n) => (n.host.includes(':') ? `[${n.host}]` : n.host) + `:${n.port}`,
    );
    return `master "${s.master}" via Sentinels ${nodes.join(',')}`;
  }
  try {
    const u = new URL(config.redisUrl);
    return `${u.hostname}:${u.port || '6379'}`;
  } catch {
    return 'REDIS_URL';
  }
}
