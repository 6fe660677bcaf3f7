import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { EnvelopeExpressAdapter } from '@app/gateway';
import { ApiModule } from '../api.module';
import { publicDocument } from '../ops/openapi';

/**
 * `npm run openapi:write [file]`: writes the public OpenAPI document (what /docs/openapi.json
 * serves) without starting anything: Nest's preview mode registers the routes but creates no
 * provider, so no database, Redis or configuration is needed. The typed client is generated
 * from this file (clients/typescript).
 */
async function main(): Promise<void> {
  const app = await NestFactory.create<NestExpressApplication>(
    ApiModule,
    new EnvelopeExpressAdapter(),
    { preview: true, logger: false, abortOnError: false },
  );
  const doc = publicDocument(app);
  const text = `${JSON.stringify(doc, null, 2)}\n`;
  const out = process.argv[2];
  if (out) writeFileSync(out, text);
  else process.stdout.write(text);
}

main().catch((err: unknown) => {
  console.error(`openapi:write failed: ${(err as Error)?.stack ?? String(err)}`);
  process.exit(1);
});
