export * from './redis.module';
export * from './redis-connection';
export * from './redis-subscription';
export * from './failure-window';
export * from './admin-auth-throttle';
export * from './redis-memory-policy';
