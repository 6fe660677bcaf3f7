import { performance } from 'node:perf_hooks';
import type { TestingModule } from '@nestjs/testing';
import { GscIngestionRepository } from '@app/database';
import { GscSyncService } from '../apps/worker/src/gsc-sync/gsc-sync.service';
import {
  FakeSearchConsoleSource,
  fakeRows,
  startSyncWorker,
} from '../test/fixtures/fake-search-console-source';
import { AdminClient } from '../test/helpers/fixtures';
import { createOwnDatabase } from '../test/helpers/own-database';
import { TestApp, createTestApp } from '../test/helpers/test-app';

/**
 * The Search Console backfill measured (docs/gsc-sync.md, "Measured"). Not part of `npm
 * test`; run it with
 *   npx jest --selectProjects e2e --testMatch '**\/bench/gsc-sync-measure.e2e-spec.ts'
 * One property, GSC_MEASURE_FACTS_PER_DAY (default 3,000) facts a day, GSC_MEASURE_MONTHS
 * (default 16) months backfilled
 * by the real sync (one worker, its runs back to back) from a fake source that answers at
 * once, into its own database. Prints days, facts, requests, seconds and facts per second.
 */
const FACTS_PER_DAY = Number(process.env.GSC_MEASURE_FACTS_PER_DAY ?? 3000);
const MONTHS = process.env.GSC_MEASURE_MONTHS ?? '16';
/** GSC_MEASURE_KEEP=1 keeps the database (to look at its plans); drop it by hand. */
const KEEP = process.env.GSC_MEASURE_KEEP === '1';

/** The fake's answers: `FACTS_PER_DAY` rows for every day, generated once and re-dated. */
class ManyDays extends FakeSearchConsoleSource {
  private readonly template = fakeRows('sc-domain:measure.example', '2000-01-01', FACTS_PER_DAY);

  override rowsOf(_site: string, day: string) {
    return this.template.map((r) => ({ ...r, keys: [day, ...r.keys.slice(1)] }));
  }
}

describe('Search Console backfill (measured)', () => {
  let t: TestApp;
  let db: { url: string; drop: () => Promise<void> } | undefined;
  let worker: TestingModule | undefined;

  beforeAll(async () => {
    db = await createOwnDatabase('gscmeasure');
    t = await createTestApp({
      now: '2026-06-15T08:00:00Z',
      env: {
        DATABASE_URL: db.url,
        REDIS_PREFIX: `${process.env.REDIS_PREFIX}:gscmeasure`,
        GSC_BACKFILL_MONTHS: MONTHS,
      },
    });
  });
  afterAll(async () => {
    await worker?.close();
    await t?.close();
    if (!KEEP) await db?.drop();
  });

  it('backfills a property', async () => {
    const fake = new ManyDays();
    worker = await startSyncWorker(t.config, t.clock, fake);
    const acc = await new AdminClient(t.url).account('pro');
    const [conn] = await t.db.query(
      `INSERT INTO gsc_connections (account_id, google_email, refresh_token_enc)
       VALUES ($1, 'measure@example.com', 'rt') RETURNING id`,
      [acc.id],
    );
    const added = await t.app.get(GscIngestionRepository).addSyncedProperty(
      acc.id,
      {
        propertyUri: 'sc-domain:measure.example',
        displayName: 'Measure',
        googleEmail: 'measure@example.com',
        connectionId: conn.id as number,
        permissionLevel: 'siteOwner',
        isSandbox: false,
      },
      t.clock.now(),
    );
    const sync = worker.get(GscSyncService);
    const t0 = performance.now();
    let days = 0;
    let rows = 0;
    for (;;) {
      const run = await sync.runDue();
      if (!run.claimed) break;
      expect(run.failed).toBe(0);
      days += run.days;
      rows += run.rows;
    }
    const seconds = (performance.now() - t0) / 1000;
    const [state] = await t.db.query(
      `SELECT backfill_days_total AS total, backfill_days_done AS done, last_sync_status
       FROM gsc_properties WHERE id = $1`,
      [added!.row.id],
    );
    const [stored] = await t.db.query(
      `SELECT count(*)::int AS n, count(DISTINCT date)::int AS days FROM gsc_rows WHERE property_id = $1`,
      [added!.row.id],
    );
    const figures = {
      factsPerDay: FACTS_PER_DAY,
      days,
      facts: rows,
      storedFacts: stored.n,
      requests: fake.requests.length,
      seconds: Math.round(seconds * 10) / 10,
      factsPerSecond: Math.round(rows / seconds),
      msPerDay: Math.round((seconds * 1000) / days),
      state,
    };
    console.log(JSON.stringify(figures, null, 2));
    expect(state).toMatchObject({ last_sync_status: 'ok' });
    expect(stored.days).toBe(days);
  }, 1_800_000);
});
