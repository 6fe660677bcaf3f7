import { Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { APP_CONFIG, AppConfig } from '@app/core';
import { flushLogs, loggerParams } from './logger';

@Injectable()
class LogFlusher implements OnApplicationShutdown {
  onApplicationShutdown(): void {
    flushLogs();
  }
}

/** Structured JSON logs (nestjs-pino) for the API and the worker, flushed on shutdown. */
@Module({
  imports: [
    LoggerModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (c: AppConfig) => loggerParams(c),
    }),
  ],
  providers: [LogFlusher],
})
export class LoggingModule {}
