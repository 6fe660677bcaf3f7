import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { EnvelopeExpressAdapter } from '@app/gateway';
import { ApiModule } from '../../apps/api/src/api.module';
import { publicDocument } from '../../apps/api/src/ops/openapi';
import { createTestApp } from '../helpers/test-app';

const ROOT = join(__dirname, '../..');
const CLIENT = join(ROOT, 'clients/typescript');
const FIX =
  'Run `npm run client:generate` and commit clients/typescript/openapi.json and src/schema.ts.';

/** What openapi-typescript makes of a document (its CLI, an ES module: in a child process). */
function generateTypes(doc: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'client-drift-'));
  try {
    writeFileSync(join(dir, 'openapi.json'), JSON.stringify(doc));
    const run = spawnSync(
      process.execPath,
      [
        join(ROOT, 'node_modules/openapi-typescript/bin/cli.js'),
        join(dir, 'openapi.json'),
        '--default-non-nullable',
        'false',
        '-o',
        join(dir, 'schema.ts'),
      ],
      { cwd: ROOT, encoding: 'utf8' },
    );
    if (run.status !== 0) throw new Error(`openapi-typescript failed: ${run.stderr}`);
    return readFileSync(join(dir, 'schema.ts'), 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Issue 26, the drift check: the typed client is generated from the public OpenAPI document,
 * and this fails when what is committed (clients/typescript/openapi.json and src/schema.ts)
 * differs from what the current code's document would generate, as the schema-drift check
 * does for the database.
 */
describe('typed client: no drift between the code, its OpenAPI document and the generated types', () => {
  let fromCode: Record<string, unknown>;

  beforeAll(async () => {
    // What `npm run openapi:write` writes: Nest's preview mode, no provider created.
    const app = await NestFactory.create<NestExpressApplication>(
      ApiModule,
      new EnvelopeExpressAdapter(),
      { preview: true, logger: false, abortOnError: false },
    );
    fromCode = JSON.parse(JSON.stringify(publicDocument(app))) as Record<string, unknown>;
  });

  it('clients/typescript/openapi.json is the document the code makes', () => {
    const committed = JSON.parse(readFileSync(join(CLIENT, 'openapi.json'), 'utf8')) as unknown;
    if (JSON.stringify(committed) !== JSON.stringify(fromCode)) {
      expect({ committed, hint: FIX }).toEqual({ committed: fromCode, hint: FIX });
    }
  });

  it('clients/typescript/src/schema.ts is what openapi-typescript generates from it', () => {
    const committed = readFileSync(join(CLIENT, 'src/schema.ts'), 'utf8');
    const generated = generateTypes(fromCode);
    if (committed !== generated) {
      expect({ schema: committed, hint: FIX }).toEqual({ schema: generated, hint: FIX });
    }
  });

  it('a running instance serves that document (apart from its servers entry)', async () => {
    const t = await createTestApp();
    try {
      const served = (await request(t.url).get('/docs/openapi.json')).body as Record<
        string,
        unknown
      >;
      expect(served.servers).toEqual([
        { url: t.config.publicBaseUrl, description: 'This service' },
      ]);
      expect({ ...served, servers: [] }).toEqual(fromCode);
    } finally {
      await t.close();
    }
  });
});
