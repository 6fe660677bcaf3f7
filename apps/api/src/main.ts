import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { APP_CONFIG, AppConfig, ConfigError, loadConfig } from '@app/core';
import { EnvelopeExpressAdapter, installClientErrorHandler } from '@app/gateway';
import { ApiModule } from './api.module';
import { configureApp } from './app.setup';

async function bootstrap(): Promise<void> {
  loadConfig(); // fail fast, before any connection is opened, with a message naming the variable
  const app = await NestFactory.create<NestExpressApplication>(
    ApiModule,
    new EnvelopeExpressAdapter(),
    {
      bodyParser: false,
      bufferLogs: true,
    },
  );
  await configureApp(app);
  installClientErrorHandler(app.getHttpServer());
  const config = app.get<AppConfig>(APP_CONFIG);
  await app.listen(config.port);
  console.log(
    `API listening on http://localhost:${config.port} (docs: ${config.publicBaseUrl}/docs)`,
  );
}

bootstrap().catch((err: unknown) => {
  if (err instanceof ConfigError) {
    console.error(err.message);
  } else {
    console.error(`API failed to start: ${(err as Error)?.stack ?? String(err)}`);
  }
  process.exit(1);
});
