import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@app/core';

/**
 * Every Redis key the service writes starts with REDIS_PREFIX: call `keys.of(...)` to build
 * one (the one shared ioredis client is REDIS, from RedisModule).
 */
@Injectable()
export class RedisKeys {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  of(...parts: Array<string | number>): string {
    return [this.config.redisPrefix, ...parts].join(':');
  }
}
