import type { RedisOptions } from 'ioredis';
import type { AppConfig } from '@app/core';

/** ioredis options plus BullMQ's `url` (BullMQ passes `url` as ioredis's first argument). */
export type RedisConnectionOptions = RedisOptions & { url?: string };

/**
 * Where every Redis connection of a process goes, as one set of ioredis options: REDIS_URL,
 * or — with REDIS_SENTINELS — the current master of REDIS_SENTINEL_MASTER as the Sentinels
 * name it. Used by the shared client (and so its duplicates: pub/sub subscribers), BullMQ's
 * queues, workers and blocking connections, and the queue dashboard.
 *
 * Through Sentinel a connection follows a failover without a restart: ioredis asks the
 * Sentinels for the master on every (re)connection, `failoverDetector` subscribes to their
 * `+switch-master` so it reconnects as soon as a new master is elected rather than when the
 * old one's socket finally fails, and a `READONLY` answer (the old master came back as a
 * replica and still holds the connection) makes it reconnect and send the command again.
 */
export function redisConnectionOptions(
  config: Pick<AppConfig, 'redisUrl' | 'redisSentinels'>,
): RedisConnectionOptions {
  const sentinels = config.redisSentinels;
  if (!sentinels) return { url: config.redisUrl };
  return {
    sentinels: sentinels.nodes,
    name: sentinels.master,
    role: 'master',
    failoverDetector: true,
    sentinelRetryStrategy: (times: number) => Math.min(times * 100, 1000),
    reconnectOnError: (err: Error) => (err.message.startsWith('READONLY') ? 2 : false),
  };
}

/** Host:port of where Redis is configured, for messages (never a password). */
export function redisTargetLabel(config: Pick<AppConfig, 'redisUrl' | 'redisSentinels'>): string {
  const s = config.redisSentinels;
  if (s)
    return `master "${s.master}" via Sentinels ${s.nodes.map((n) => `${n.host}:${n.port}`).join(',')}`;
  try {
    const u = new URL(config.redisUrl);
    return `${u.hostname}:${u.port || '6379'}`;
  } catch {
    return 'REDIS_URL';
  }
}
