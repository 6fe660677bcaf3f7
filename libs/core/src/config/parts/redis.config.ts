import { z } from 'zod';
import { int, url } from './env-values';

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

const sentinels = z
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
  });

/** Redis: the server (or its Sentinels), the key prefix and the command bound. */
export const redisEnv = z.object({
  REDIS_URL: url(['redis:', 'rediss:'], 'redis://127.0.0.1:6379'),
  REDIS_SENTINELS: sentinels,
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
  // ---- dependency outages (docs/reliability.md) ----
  REDIS_COMMAND_TIMEOUT_MS: int(50, 60_000, 2000),
});
type RedisEnv = z.infer<typeof redisEnv>;

export interface RedisConfig {
  redisUrl: string;
  /**
   * REDIS_SENTINELS: when set, every Redis connection goes through these Sentinels to the
   * master named REDIS_SENTINEL_MASTER, and REDIS_URL is ignored (docs/reliability.md).
   */
  redisSentinels: { nodes: Array<{ host: string; port: number }>; master: string } | null;
  redisPrefix: string;
  /** Bound on any command of the shared Redis client, queued or sent (ms). */
  redisCommandTimeoutMs: number;
}

export function redisConfig(e: RedisEnv): RedisConfig {
  return {
    redisUrl: e.REDIS_URL!,
    redisSentinels: e.REDIS_SENTINELS
      ? { nodes: e.REDIS_SENTINELS, master: e.REDIS_SENTINEL_MASTER }
      : null,
    redisPrefix: e.REDIS_PREFIX,
    redisCommandTimeoutMs: e.REDIS_COMMAND_TIMEOUT_MS,
  };
}
