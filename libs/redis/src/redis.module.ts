import { Inject, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import Redis, { RedisOptions } from 'ioredis';
import { APP_CONFIG, AppConfig } from '@app/core';
import { AdminAuthThrottle } from './admin-auth-throttle';
import { FailureWindow } from './failure-window';
import { RedisConnectionOptions, redisConnectionOptions } from './redis-connection';
import { RedisKeys } from './redis-keys';
import { RedisMemoryPolicy } from './redis-memory-policy';
import { REDIS } from './redis.token';

export { REDIS, RedisKeys };

@Injectable()
class RedisCloser implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}
  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

/**
 * Bounded waits while Redis is unreachable (docs/reliability.md). Commands issued before the
 * first connection wait in the offline queue (start-up); once connected, the queue is turned
 * off, so a command issued while the connection is down fails at once ("Stream isn't
 * writeable") instead of waiting. A command sent to a server that stops answering fails
 * after `commandTimeoutMs`; none is retried on reconnection (`maxRetriesPerRequest: 0`: the
 * client retries, not this process). Reconnection attempts every 50 ms, 100 ms, ... at most
 * every 500 ms, so a returning Redis is used again within about half a second.
 */
export function createRedis(
  target: RedisConnectionOptions | string,
  commandTimeoutMs = 2000,
): Redis {
  const { url, ...where } = typeof target === 'string' ? { url: target } : target;
  // Auto-pipelining sends the commands issued in one tick (concurrent requests' throttle
  // checks) in one write.
  const options: RedisOptions = {
    ...where,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: true,
    commandTimeout: commandTimeoutMs,
    retryStrategy: (times) => Math.min(times * 50, 500),
    lazyConnect: false,
    enableAutoPipelining: true,
  };
  const redis = url ? new Redis(url, options) : new Redis(options);
  // ioredis reads this option on every command.
  redis.once('ready', () => {
    redis.options.enableOfflineQueue = false;
  });
  return redis;
}

@Module({
  providers: [
    {
      provide: REDIS,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) =>
        createRedis(redisConnectionOptions(config), config.redisCommandTimeoutMs),
    },
    RedisKeys,
    RedisCloser,
    FailureWindow,
    AdminAuthThrottle,
    RedisMemoryPolicy,
  ],
  exports: [REDIS, RedisKeys, FailureWindow, AdminAuthThrottle, RedisMemoryPolicy],
})
export class RedisModule {}
