import { Inject, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { APP_CONFIG, AppConfig } from '@app/core';
import { FailureWindow } from './failure-window';
import { REDIS } from './redis.token';

export { REDIS };

/**
 * One shared ioredis client. Every key the service writes starts with REDIS_PREFIX:
 * call `keys.of(...)` to build one.
 */
@Injectable()
export class RedisKeys {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  of(...parts: Array<string | number>): string {
    return [this.config.redisPrefix, ...parts].join(':');
  }
}

@Injectable()
class RedisCloser implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}
  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

export function createRedis(url: string): Redis {
  // Auto-pipelining sends the commands issued in one tick (concurrent requests' throttle
  // checks) in one write.
  return new Redis(url, {
    maxRetriesPerRequest: 2,
    enableOfflineQueue: true,
    lazyConnect: false,
    enableAutoPipelining: true,
  });
}

@Module({
  providers: [
    {
      provide: REDIS,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => createRedis(config.redisUrl),
    },
    RedisKeys,
    RedisCloser,
    FailureWindow,
  ],
  exports: [REDIS, RedisKeys, FailureWindow],
})
export class RedisModule {}
