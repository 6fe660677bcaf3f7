import { NestFactory } from '@nestjs/core';
import { SeedModule } from '../../apps/api/src/cli/seed.module';

/**
 * `npm start` seeds the demo account in an application context of its own (SeedModule),
 * without ApiModule: every provider its modules need must resolve there too. (A provider
 * that only ApiModule's global modules gave once stopped `npm start` while every HTTP test
 * passed.)
 */
describe('the demo seed context', () => {
  it('resolves and starts outside ApiModule', async () => {
    const app = await NestFactory.createApplicationContext(SeedModule, {
      logger: false,
      abortOnError: false,
    });
    await app.init();
    await app.close();
  });
});
