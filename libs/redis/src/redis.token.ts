/** The injection token of the shared ioredis client (RedisModule provides it). */
export const REDIS = Symbol('REDIS');
