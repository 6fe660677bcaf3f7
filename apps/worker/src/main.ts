import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import Redis from 'ioredis';
import { ConfigError, loadConfig } from '@app/core';
import { Sql } from '@app/database';
import { REDIS, redisTargetLabel, refuseEvictingRedis } from '@app/redis';
import { WorkerModule } from './worker.module';

async function bootstrap(): Promise<void> {
  const config = loadConfig(); // fail fast with a message naming the bad variable
  // Production: a Redis that evicts keys is refused before any job is taken.
  await refuseEvictingRedis(config);
  const app = await NestFactory.createApplicationContext(WorkerModule, { bufferLogs: true });
  const logger = app.get(Logger);
  app.useLogger(logger);
  app.enableShutdownHooks();
  await app.get(Sql).ping();
  await app.get<Redis>(REDIS).ping();
  logger.log(
    `Worker ready: connected to PostgreSQL and Redis (${redisTargetLabel(config)})`,
    'Worker',
  );
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => logger.log(`Worker received ${signal}, shutting down`, 'Worker'));
  }
}

bootstrap().catch((err: unknown) => {
  console.error(
    err instanceof ConfigError
      ? err.message
      : `Worker failed to start: ${(err as Error)?.stack ?? String(err)}`,
  );
  process.exit(1);
});
