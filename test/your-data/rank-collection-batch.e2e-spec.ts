import { plainDate } from '@app/core';
import {
  RankCheckInput,
  RankChecksRepository,
  SerpTasksRepository,
  Sql,
  SqlTx,
} from '@app/database';
import { createSerpProvider } from '@app/providers';
import {
  RankCollectionService,
  STORE_BATCH,
} from '../../apps/worker/src/rank-collection/rank-collection.service';
import { FakeSerpQueue, taskCost } from '../fixtures/fake-serp-queue';
import { AdminClient } from '../helpers/fixtures';
import { createOwnDatabase } from '../helpers/own-database';
import { TestApp, createTestApp } from '../helpers/test-app';

/** The rank write path, failing for the keywords in `failing` (as a constraint or a lost connection would). */
class FlakyChecks extends RankChecksRepository {
  readonly failing = new Set<number>();
  override storeChecksIn(
    tx: SqlTx,
    keywordId: number,
    checks: RankCheckInput[],
    now: Date,
  ): Promise<number | null> {
    if (this.failing.has(keywordId))
      return Promise.reject(new Error(`injected failure ${keywordId}`));
    return super.storeChecksIn(tx, keywordId, checks, now);
  }
}

/**
 * Collection stores its checks STORE_BATCH to a transaction (docs/rank-collection.md,
 * "Collection at agency scale"): a failure inside a batch loses no check and books none
 * twice, two workers collecting the same tasks store each once, the spend ledger stays exact,
 * and the account's rank version moves once per batch, not once per check.
 */
describe('rank collection: checks stored in batches', () => {
  const fake = new FakeSerpQueue();
  let t: TestApp;
  let db: { url: string; drop: () => Promise<void> } | undefined;
  let admin: AdminClient;
  let sql: Sql;

  beforeAll(async () => {
    await fake.start();
    db = await createOwnDatabase('rankbatch');
    t = await createTestApp({ env: fake.env({ DATABASE_URL: db.url, RANK_CHECK_DEPTH: '100' }) });
    admin = new AdminClient(t.url);
    sql = t.app.get(Sql);
  });
  afterAll(async () => {
    await t?.close();
    await fake.close();
    await db?.drop();
  });

  const worker = (checks = new RankChecksRepository(sql)) =>
    new RankCollectionService(
      t.config,
      new SerpTasksRepository(sql, checks),
      createSerpProvider(t.config, t.clock),
      t.clock,
    );

  /** A tracking project with `n` keywords `<prefix> <i>`; switched off again by `done`. */
  async function project(prefix: string, n: number) {
    const acc = await admin.account('pro', { requests_per_minute: 100_000 });
    const res = await admin.post(`/accounts/${acc.id}/rank-projects`, {
      domain: `${prefix}.example`,
      name: prefix,
      tracking: true,
    });
    const projectId = res.body.data.id as number;
    const ids = (
      await sql.rows<{ id: number }>(
        `INSERT INTO tracked_keywords (account_id, project_id, keyword, country, language, device, status)
         SELECT $1, $2, $3 || ' ' || g, 'US', 'en', 'desktop', 'pending' FROM generate_series(1, $4) g
         RETURNING id`,
        [acc.id, projectId, prefix, n],
      )
    ).map((r) => r.id);
    const done = () =>
      admin.post(`/accounts/${acc.id}/rank-projects`, {
        domain: `${prefix}.example`,
        name: prefix,
        tracking: false,
      });
    return { accountId: acc.id, ids, done };
  }

  const counts = (accountId: number) =>
    sql.one<{ checks: number; collected: number; posted: number; failed: number; tasks: number }>(
      `SELECT (SELECT count(*)::int FROM rank_checks WHERE account_id = $1) AS checks,
              count(*) FILTER (WHERE state = 'collected')::int AS collected,
              count(*) FILTER (WHERE state = 'posted')::int AS posted,
              count(*) FILTER (WHERE state IN ('failed', 'refused'))::int AS failed,
              count(*)::int AS tasks
       FROM rank_serp_tasks WHERE account_id = $1`,
      [accountId],
    );
  const spend = (accountId: number) =>
    sql.one<{ tasks: number; usd: string }>(
      `SELECT coalesce(sum(tasks), 0)::int AS tasks, coalesce(sum(usd), 0)::text AS usd
       FROM provider_spend WHERE account_id = $1`,
      [accountId],
    );
  const version = async (accountId: number) =>
    Number(
      (
        await sql.one<{ version: string }>(
          `SELECT version::text FROM rank_versions WHERE account_id = $1`,
          [accountId],
        )
      )?.version ?? 0,
    );

  it('a check failing inside a batch: the others are stored, it stays posted and is stored once later; spend exact', async () => {
    const n = STORE_BATCH + 50;
    const p = await project('batchfail', n);
    // Provider-side outcomes inside the same batch: no results (stored, not ranked), a
    // refused field (refused, keyword error), a server error (failed, retried later).
    fake.taskCodes.set('batchfail 3', 40102);
    fake.taskCodes.set('batchfail 4', 40501);
    fake.taskCodes.set('batchfail 5', 50000);
    fake.serps.set('batchfail 6', { rank: 2, host: 'www.batchfail.example' });
    const checks = new FlakyChecks(sql);
    const bad = [p.ids[10], p.ids[STORE_BATCH + 20]];
    bad.forEach((id) => checks.failing.add(id));
    const w = worker(checks);

    expect(await w.postDue()).toMatchObject({ posted: n, failed: 0 });
    const first = await w.collect();
    // All but the two whose store failed and the two the provider failed were stored.
    expect(first).toMatchObject({ collected: n - 4, failed: 2 });
    let c = await counts(p.accountId);
    expect(c).toMatchObject({ checks: n - 4, collected: n - 4, posted: 2, failed: 2, tasks: n });
    for (const id of bad)
      expect(
        (await sql.one<{ state: string }>(
          `SELECT state FROM rank_serp_tasks WHERE keyword_id = $1`,
          [id],
        ))!.state,
      ).toBe('posted');

    // The fault is gone: the posted two are collected (asked directly once overdue), once.
    checks.failing.clear();
    t.clock.advance(16 * 60_000);
    const second = await w.collect();
    expect(second.collected).toBe(2);
    c = await counts(p.accountId);
    expect(c).toMatchObject({ checks: n - 2, collected: n - 2, posted: 0, tasks: n });
    expect(await w.collect()).toMatchObject({ collected: 0 });
    // Every keyword's day has exactly one check and one task.
    const dupes = await sql.rows(
      `SELECT keyword_id FROM rank_checks WHERE account_id = $1 GROUP BY keyword_id, check_date HAVING count(*) > 1`,
      [p.accountId],
    );
    expect(dupes).toEqual([]);
    const ranked = await sql.one<{ position: number | null }>(
      `SELECT position FROM rank_checks WHERE keyword_id = $1`,
      [p.ids[5]],
    );
    expect(ranked?.position).toBe(2);
    const notRanked = await sql.one<{ position: number | null }>(
      `SELECT position FROM rank_checks WHERE keyword_id = $1`,
      [p.ids[2]],
    );
    expect(notRanked).toEqual({ position: null });
    // Spend: each created task once at its documented price; nothing for what was refused.
    const s = await spend(p.accountId);
    expect(s!.tasks).toBe(n);
    expect(Number(s!.usd)).toBeCloseTo(n * taskCost(100), 9);
    expect(
      fake.posts.flat().filter((x) => String(x.keyword).startsWith('batchfail ')),
    ).toHaveLength(n);
    await p.done();
  });

  it('two workers collecting the same ready tasks at once store each check once', async () => {
    const n = 2 * STORE_BATCH + 30;
    const p = await project('batchrace', n);
    expect(await worker().postDue()).toMatchObject({ posted: n });
    const [a, b] = await Promise.all([worker().collect(), worker().collect()]);
    expect(a.collected + b.collected).toBe(n);
    expect(await counts(p.accountId)).toMatchObject({ checks: n, collected: n, tasks: n });
    const s = await spend(p.accountId);
    expect(Number(s!.usd)).toBeCloseTo(n * taskCost(100), 9);
    await p.done();
  });

  it('the rank version (what keeps the API pages) moves once per stored batch, not once per check', async () => {
    const n = 2 * STORE_BATCH;
    const p = await project('batchversion', n);
    const w = worker();
    await w.postDue();
    const before = await version(p.accountId);
    expect(await w.collect()).toMatchObject({ collected: n });
    const bumps = (await version(p.accountId)) - before;
    expect(bumps).toBeGreaterThanOrEqual(1);
    expect(bumps).toBeLessThanOrEqual(Math.ceil(n / STORE_BATCH));
    const day = plainDate(t.clock.now());
    expect(
      await sql.one<{ n: number }>(
        `SELECT count(*)::int AS n FROM rank_checks WHERE account_id = $1 AND check_date = $2::date`,
        [p.accountId, day],
      ),
    ).toEqual({ n });
    await p.done();
  });
});
