import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig, loadConfig } from './app-config';
import { Clock, SystemClock } from '../time/clock';

/**
 * Provides the validated AppConfig and the Clock to every module. Tests override
 * APP_CONFIG and Clock through the testing module builder.
 */
@Global()
@Module({
  providers: [
    { provide: APP_CONFIG, useFactory: (): AppConfig => loadConfig() },
    { provide: Clock, useClass: SystemClock },
  ],
  exports: [APP_CONFIG, Clock],
})
export class CoreModule {}
