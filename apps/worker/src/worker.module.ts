import { Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { APP_CONFIG, AppConfig, CoreModule } from '@app/core';
import { DatabaseModule } from '@app/database';
import { loggerParams } from '@app/gateway';

/** The worker process: no public HTTP, queue processors only. */
@Module({
  imports: [
    CoreModule,
    LoggerModule.forRootAsync({ inject: [APP_CONFIG], useFactory: (c: AppConfig) => loggerParams(c) }),
    DatabaseModule,
  ],
})
export class WorkerModule {}
