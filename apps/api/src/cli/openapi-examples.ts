import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import Redis from 'ioredis';
import { Client } from 'pg';
import { runMigrations } from '@app/database';
import { EnvelopeExpressAdapter, declaredEndpoints, withSampleIds } from '@app/gateway';
import { ApiModule } from '../api.module';
import { configureApp } from '../app.setup';
import { DemoSamplesRepository } from '../ops/demo-samples.repository';
import { RecordedAnswer, exampleOf } from '../ops/openapi-examples';
import { seedDemo } from './seed-demo';
import { SeedModule } from './seed.module';
// The worker's Search Console sync, run once so the demo property has its sandbox facts.
import { GscSyncModule } from '../../../worker/src/gsc-sync/gsc-sync.module';
import { GscSyncService } from '../../../worker/src/gsc-sync/gsc-sync.service';

/** Where the recorded answers are kept (beside openapi-examples.ts; compiled in by import). */
const OUT = join(process.cwd(), 'apps/api/src/ops/openapi-examples.json');

/**
 * Every public operation's sample call (its @Endpoint `sample`, with the demo's ids as /docs
 * serves them) sent to the running API at `baseUrl` with the demo key: the answers by
 * operation id, as the document shows them (exampleOf). A call that does not succeed throws.
 * The audit sample's site is `auditUrl` (the recorder has no outside network to rely on).
 */
export async function recordAnswers(
  app: INestApplicationContext,
  baseUrl: string,
  key: string,
  auditUrl: string,
): Promise<Record<string, RecordedAnswer>> {
  const ids = (await app.get(DemoSamplesRepository).sampleIds()) ?? {};
  const out: Record<string, RecordedAnswer> = {};
  for (const e of declaredEndpoints()) {
    const call = withSampleIds(e.declaration.sample, ids);
    let path = e.path;
    for (const [name, value] of Object.entries(call.path ?? {}))
      path = path.replace(`{${name}}`, encodeURIComponent(value));
    const query = new URLSearchParams(
      Object.entries(call.query ?? {}).map(([k, v]): [string, string] => [k, String(v)]),
    ).toString();
    const body =
      e.declaration.operationId === 'startSiteAudit' ? { ...call.body, url: auditUrl } : call.body;
    const res = await fetch(`${baseUrl}${path}${query ? `?${query}` : ''}`, {
      method: e.method.toUpperCase(),
      headers: {
        Authorization: `Bearer ${key}`,
        ...(body ? { 'Content-Type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    const answer = (await res.json()) as unknown;
    if (res.status >= 300)
      throw new Error(
        `${e.declaration.operationId}: ${res.status} ${JSON.stringify(answer).slice(0, 500)}`,
      );
    out[e.declaration.operationId] = { status: res.status, body: exampleOf(answer) };
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}

/** The demo seed's module with the worker's Search Console sync (its schedule off). */
@Module({ imports: [SeedModule, GscSyncModule] })
class SeedAndSyncModule {}

/** The recorder's Redis key prefix (its keys are removed after the run). */
const REDIS_PREFIX = 'seo-openapi-examples';

/** A migrated database of its own beside DATABASE_URL's, and how to drop it. */
async function ownDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/seo');
  const name = `seo_openapi_examples_${randomBytes(4).toString('hex')}`;
  const admin = async (sql: string) => {
    const c = new Client({ connectionString: new URL('/postgres', base).href });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await admin(`CREATE DATABASE "${name}"`);
  const url = new URL(`/${name}`, base).href;
  await runMigrations(url);
  return { url, drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

/**
 * `npm run openapi:examples`: records the success examples of /docs/openapi.json. In a
 * database of its own (dropped after; the demo account of DATABASE_URL is left alone) it
 * seeds the demo as `npm start` does, runs the Search Console sync once (one month of
 * sandbox facts), starts the API with the sandbox provider and sends every operation's
 * sample call with the demo key; the answers go to apps/api/src/ops/openapi-examples.json
 * (commit it). Needs PostgreSQL and Redis, as `npm start` does.
 */
async function main(): Promise<void> {
  const db = await ownDatabase();
  Object.assign(process.env, {
    DATABASE_URL: db.url,
    SEO_DATA_PROVIDER: 'sandbox',
    REDIS_PREFIX,
    GSC_BACKFILL_MONTHS: '1',
    GSC_SYNC_ENABLED: 'false',
    RANK_COLLECTION_ENABLED: 'false',
    AI_VISIBILITY_SCANS_ENABLED: 'false',
    // The audit sample's site is this API's own origin: accepted, never crawled here.
    AUDIT_ALLOW_PRIVATE_NETWORKS: 'true',
    LOG_LEVEL: 'warn',
  });
  let app: NestExpressApplication | undefined;
  try {
    // As `npm start`: the seed first (here with one sync of the demo property), then the API.
    const seeder = await NestFactory.createApplicationContext(SeedAndSyncModule, {
      logger: ['error', 'warn'],
    });
    let key: string;
    try {
      ({ key } = await seedDemo(seeder));
      await seeder.get(GscSyncService).runDue();
    } finally {
      await seeder.close();
    }
    app = await NestFactory.create<NestExpressApplication>(
      ApiModule,
      new EnvelopeExpressAdapter(),
      {
        bodyParser: false,
        logger: ['error', 'warn'],
      },
    );
    await configureApp(app);
    await app.listen(0, '127.0.0.1');
    const { port } = app.getHttpServer().address() as { port: number };
    const base = `http://127.0.0.1:${port}`;
    const answers = await recordAnswers(app, base, key, `${base}/`);
    writeFileSync(OUT, `${JSON.stringify(answers, null, 2)}\n`);
    console.log(`${Object.keys(answers).length} answers recorded in ${OUT}`);
  } finally {
    await app?.close();
    await db.drop();
    await dropRedisKeys(`${REDIS_PREFIX}*`);
  }
}

/** The recorder's Redis keys (its queues, the audit it queued), removed after the run. */
async function dropRedisKeys(pattern: string): Promise<void> {
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  try {
    for await (const keys of redis.scanStream({ match: pattern, count: 500 }))
      if ((keys as string[]).length) await redis.del(...(keys as string[]));
  } finally {
    redis.disconnect();
  }
}

if (require.main === module) {
  main().catch((err: unknown) => {
    console.error(`openapi:examples failed: ${(err as Error)?.stack ?? String(err)}`);
    process.exit(1);
  });
}
