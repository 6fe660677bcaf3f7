import { Logger } from '@nestjs/common';
import { Test, TestingModule } from '@nestjs/testing';
import request from 'supertest';
import { APP_CONFIG, Clock } from '@app/core';
import { WorkerModule } from '../../apps/worker/src/worker.module';
import { GscSyncService } from '../../apps/worker/src/gsc-sync/gsc-sync.service';
import { AdminClient } from '../helpers/fixtures';
import { signIn, SignedInUser } from '../helpers/account-session';
import { createOwnDatabase } from '../helpers/own-database';
import { createTestApp, TestApp } from '../helpers/test-app';
import { FakeGoogle } from '../fixtures/fake-google';

const NOW = '2026-11-26T12:00:00Z';

/**
 * Connect and sync together, the real Google client in the worker against the local fake of
 * Google: a site connected and added in the account area is synced (facts stored, progress
 * and status true); the user revokes access at Google → `invalid_grant` → the connection and
 * the property need a reconnect; reconnecting the same Google account makes them sync again.
 */
describe('Search Console: connect, then the worker syncs through the Google client', () => {
  const google = new FakeGoogle();
  let t: TestApp;
  let worker: TestingModule;
  let sync: GscSyncService;
  let me: SignedInUser;
  let db: Awaited<ReturnType<typeof createOwnDatabase>>;

  beforeAll(async () => {
    Logger.overrideLogger(false);
    await google.start();
    db = await createOwnDatabase('gsc_connect_sync');
    t = await createTestApp({
      now: NOW,
      env: google.env({
        DATABASE_URL: db.url,
        REDIS_PREFIX: `${process.env.REDIS_PREFIX}:gscconnectsync`,
        SECRETS_ENCRYPTION_KEY: Buffer.alloc(32, 3).toString('base64'),
        GSC_BACKFILL_MONTHS: '0',
      }),
    });
    google.redirectUris.add(`${t.config.publicBaseUrl}/account/gsc/callback`);
    worker = await Test.createTestingModule({ imports: [WorkerModule] })
      .overrideProvider(APP_CONFIG)
      .useValue(t.config)
      .overrideProvider(Clock)
      .useValue(t.clock)
      .compile();
    worker.useLogger(false);
    await worker.init();
    sync = worker.get(GscSyncService);
    const account = await new AdminClient(t.url).account('pro');
    me = await signIn(t.url, account.id);
  });
  afterAll(async () => {
    await worker?.close();
    await t?.close();
    await google.close();
    await db?.drop();
  });

  const connectAndCallback = async () => {
    const { callback } = await google.consentThrough(t.url, me.cookie);
    const done = await request(t.url)
      .get(callback.pathname + callback.search)
      .set('Cookie', me.cookie);
    expect(done.status).toBe(303);
  };

  it('syncs a connected site, asks for a reconnect after invalid_grant, syncs again after it', async () => {
    for (const [day, n] of [
      ['2026-11-24', 30],
      ['2026-11-23', 7],
      ['2026-11-21', 2],
    ] as const)
      google.addFacts('sc-domain:example.com', day, n);
    await connectAndCallback();
    const [conn] = (await me.get('/gsc/connections')).body.data;
    const added = await me.post('/gsc/properties', {
      connection_id: conn.connection_id,
      site_url: 'sc-domain:example.com',
    });
    expect(added.status).toBe(201);

    const run = await sync.runDue();
    expect(run).toMatchObject({ claimed: 1, failed: 0, rows: 39 });
    const [synced] = (await me.get('/gsc/properties')).body.data;
    expect(synced).toMatchObject({ last_sync_status: 'ok', status: 'active' });
    expect(synced.last_synced_at).not.toBeNull();
    const [{ n }] = await t.db.query(
      'SELECT count(*)::int AS n FROM gsc_rows WHERE property_id = $1',
      [synced.property_id],
    );
    expect(n).toBe(39);

    // The user removes the app's access in their Google account.
    for (const r of google.refreshTokens.values()) r.revoked = true;
    for (const a of google.accessTokens.values()) a.revoked = true;
    t.clock.advance(2 * 3_600_000);
    await sync.runDue();
    const [lost] = (await me.get('/gsc/connections')).body.data;
    expect(lost.status).toBe('reauth_required');
    const [waiting] = (await me.get('/gsc/properties')).body.data;
    expect(waiting).toMatchObject({ last_sync_status: 'reauth_required' });

    // Reconnect: the same Google account, a new token; the property syncs again.
    await connectAndCallback();
    const [back] = (await me.get('/gsc/connections')).body.data;
    expect(back).toMatchObject({ connection_id: conn.connection_id, status: 'active' });
    t.clock.advance(60_000);
    expect(await sync.runDue()).toMatchObject({ claimed: 1, failed: 0 });
    const [again] = (await me.get('/gsc/properties')).body.data;
    expect(again).toMatchObject({ status: 'active', last_sync_status: 'ok' });
  });
});
