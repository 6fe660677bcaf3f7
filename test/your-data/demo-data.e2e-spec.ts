import type { TestingModule } from '@nestjs/testing';
import { AdminClient, TestAccount } from '../helpers/fixtures';
import { createTestApp, TestApp } from '../helpers/test-app';
import { createOwnDatabase } from '../helpers/own-database';
import { startWorker } from '../site-audit/site-audit-helpers';
import { seedDemoData } from '../../apps/api/src/cli/demo-data';
import { seedDemo } from '../../apps/api/src/cli/seed-demo';
import { GscSyncService } from '../../apps/worker/src/gsc-sync/gsc-sync.service';
import { bearer } from '../helpers/fixtures';
import { GENEROUS, get } from './your-data-fixtures';

describe('demo your-data seed (seedDemo → seedDemoData)', () => {
  let t: TestApp;
  let acc: TestAccount;
  // Its own database: the worker's sync claims every due property of a database.
  let db: { url: string; drop: () => Promise<void> } | undefined;
  let worker: TestingModule | undefined;
  const counts = async () =>
    (
      await t.db.query(
        `SELECT (SELECT count(*) FROM rank_projects WHERE account_id = $1)::int AS projects,
                (SELECT count(*) FROM tracked_keywords WHERE account_id = $1)::int AS keywords,
                (SELECT count(*) FROM rank_checks WHERE account_id = $1)::int AS checks,
                (SELECT count(*) FROM gsc_rows WHERE account_id = $1)::int AS gsc_rows,
                (SELECT count(*) FROM ai_visibility_snapshots WHERE account_id = $1)::int AS scans,
                (SELECT count(*) FROM ai_visibility_competitors WHERE account_id = $1)::int AS competitors`,
        [acc.id],
      )
    )[0];

  beforeAll(async () => {
    db = await createOwnDatabase('demodata');
    t = await createTestApp({
      now: '2026-06-15T08:00:00Z',
      // 3 months of Search Console backfill: 2026-03-14 to the newest final day, 2026-06-13.
      env: { DATABASE_URL: db.url, GSC_BACKFILL_MONTHS: '3' },
    });
    acc = await new AdminClient(t.url).account('pro', GENEROUS);
  });
  afterAll(async () => {
    await worker?.close();
    await t?.close();
    await db?.drop();
  });

  it('is fast, realistic and idempotent (re-running replaces, never duplicates)', async () => {
    const started = Date.now();
    const first = await seedDemoData(t.app, acc.id);
    expect(Date.now() - started).toBeLessThan(15_000);
    const before = await counts();
    expect(before).toMatchObject({
      projects: 2,
      keywords: 50,
      checks: 49 * 120,
      scans: 8,
      competitors: 8 * 25,
    });
    // The seed adds the sandbox property; the worker's sync fills it.
    expect(first.gscProperties).toBe(1);
    expect(before.gsc_rows).toBe(0);
    worker = await startWorker(t.config, t.clock);
    const synced = await worker.get(GscSyncService).runDue();
    expect(synced).toMatchObject({ days: 92, failed: 0 });
    const after = await counts();
    expect(after.gsc_rows).toBe(synced.rows);
    expect(after.gsc_rows / 92).toBeGreaterThan(100); // a few hundred rows a day
    // Re-seeding keeps the synced property, its facts and its progress.
    await seedDemoData(t.app, acc.id);
    expect(await counts()).toEqual(after);
    expect(await worker.get(GscSyncService).runDue()).toMatchObject({ claimed: 0 });
  });

  it('the public endpoints show what the demo promises', async () => {
    const kws = (await get(t, acc, '/api/v1/rank/keywords?limit=500')).body.data.keywords;
    expect(kws).toHaveLength(50);
    const never = kws.filter((k: { last_checked: string | null }) => k.last_checked === null);
    expect(never).toHaveLength(1);
    expect(never[0].current_position).toBeNull();
    const withUnranked = await t.db.query(
      `SELECT count(DISTINCT keyword_id)::int AS n FROM rank_checks WHERE account_id = $1 AND position IS NULL`,
      [acc.id],
    );
    expect(withUnranked[0].n).toBeGreaterThan(10);
    const hist = await get(t, acc, `/api/v1/rank/history?keyword_id=${kws[0].keyword_id}&days=365`);
    expect(hist.body.meta.points).toBe(120);
    expect(hist.body.data.history[0].check_date).toBe('2026-06-15');

    const props = (await get(t, acc, '/api/v1/gsc/properties')).body.data.properties;
    expect(props).toHaveLength(1);
    const byDate = await get(
      t,
      acc,
      `/api/v1/gsc/queries?property_id=${props[0].property_id}&dim=date&from=2026-03-01&limit=500`,
    );
    expect(byDate.body.data.total_rows).toBe(92);
    expect(byDate.body.data.totals.clicks).toBeGreaterThan(0);
    expect(props[0]).toMatchObject({ is_sandbox: true, last_sync_status: 'ok' });
    // The outdoor store's checks of synced days show Search Console figures; the recipe
    // blog has no property: its checks have none.
    const figures = await t.db.query(
      `SELECT rp.domain, count(*) FILTER (WHERE c.gsc_impressions > 0)::int AS with_figures,
              count(*) FILTER (WHERE c.gsc_impressions IS NULL)::int AS without
       FROM rank_checks c JOIN tracked_keywords k ON k.id = c.keyword_id
       JOIN rank_projects rp ON rp.id = k.project_id
       WHERE c.account_id = $1 AND c.check_date BETWEEN '2026-03-14' AND '2026-06-13'
       GROUP BY rp.domain ORDER BY rp.domain`,
      [acc.id],
    );
    expect(figures[0]).toMatchObject({ domain: 'demo-outdoor.com' });
    expect(figures[0].with_figures).toBeGreaterThan(30 * 92 * 0.5);
    expect(figures[1]).toMatchObject({ domain: 'demo-recipes.com', with_figures: 0 });

    const projects = (await get(t, acc, '/api/v1/ai-visibility/projects')).body.data.projects;
    expect(projects).toHaveLength(2);
    const scanned = projects.find((p: { score_change: number | null }) => p.score_change !== null);
    const idle = projects.find(
      (p: { visibility_score: number | null }) => p.visibility_score === null,
    );
    expect(scanned).toBeDefined();
    expect(idle).toBeDefined();
    const sov = (await get(t, acc, `/api/v1/ai-visibility/share-of-voice?project_id=${scanned.id}`))
      .body.data;
    expect(sov.competitors).toHaveLength(20);
    expect(sov.share_of_voice.brand_share_pct).toEqual(expect.any(Number));
    const none = (await get(t, acc, `/api/v1/ai-visibility/share-of-voice?project_id=${idle.id}`))
      .body.data;
    expect(none.latest_snapshot).toBeNull();
  });

  it('npm start keeps one demo key: a new start revokes the key the previous one printed', async () => {
    const first = await seedDemo(t.app);
    const usage = (key: string) => t.http().get('/api/v1/usage').set(bearer(key));
    expect((await usage(first.key)).status).toBe(200);
    const other = await new AdminClient(t.url).post(`/accounts/${first.accountId}/api-keys`, {
      label: 'my script',
    });
    const second = await seedDemo(t.app);
    expect(second.accountId).toBe(first.accountId);
    expect((await usage(first.key)).status).toBe(401);
    expect((await usage(second.key)).status).toBe(200);
    expect((await usage(other.body.data.key as string)).status).toBe(200); // left alone
  });
});
