import { DynamicModule, ModuleMetadata, Type } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import { DataSource } from 'typeorm';
import request from 'supertest';
import { APP_CONFIG, AppConfig, Clock, ManualClock, loadConfig } from '@app/core';
import { EnvelopeExpressAdapter, installClientErrorHandler } from '@app/gateway';
import { ApiModule } from '../../apps/api/src/api.module';
import { configureApp } from '../../apps/api/src/app.setup';

export const ADMIN_TOKEN = () => process.env.ADMIN_TOKEN!;

export interface TestApp {
  app: NestExpressApplication;
  /** Base URL of the listening server (real HTTP on an ephemeral port). */
  url: string;
  clock: ManualClock;
  config: AppConfig;
  db: DataSource;
  http: () => ReturnType<typeof request>;
  close: () => Promise<void>;
}

export interface TestAppOptions {
  /** Environment overrides on top of the run's (e.g. RATE_LIMIT_WINDOW_SECONDS). */
  env?: Record<string, string>;
  /** Start time of the injected clock (default: now). */
  now?: Date | string;
  /** Extra modules (e.g. test-only routes). */
  imports?: Array<Type<unknown> | DynamicModule>;
  /** Extra provider overrides. */
  configure?: (builder: ReturnType<typeof Test.createTestingModule>) => void;
}

/** The real API module over real HTTP, with an injected ManualClock. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const config = loadConfig({ ...process.env, ...(options.env ?? {}) });
  const clock = new ManualClock(options.now ? new Date(options.now) : new Date());
  const metadata: ModuleMetadata = { imports: [ApiModule, ...(options.imports ?? [])] };
  const builder = Test.createTestingModule(metadata)
    .overrideProvider(APP_CONFIG)
    .useValue(config)
    .overrideProvider(Clock)
    .useValue(clock);
  options.configure?.(builder);
  const moduleRef = await builder.compile();
  const app = moduleRef.createNestApplication<NestExpressApplication>(
    new EnvelopeExpressAdapter(),
    {
      bodyParser: false,
      logger: false,
    },
  );
  try {
    await configureApp(app);
    installClientErrorHandler(app.getHttpServer());
    await app.listen(0, '127.0.0.1');
  } catch (err) {
    // A start-up refusal (e.g. secrets under an unknown key) must not leave the connections
    // its providers opened, or jest never exits.
    await app.close().catch(() => undefined);
    throw err;
  }
  const address = app.getHttpServer().address() as { port: number };
  const url = `http://127.0.0.1:${address.port}`;
  return {
    app,
    url,
    clock,
    config,
    db: app.get(DataSource),
    http: () => request(url),
    close: () => app.close(),
  };
}
