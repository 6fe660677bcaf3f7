import { getQueueToken } from '@nestjs/bullmq';
import type { TestingModule } from '@nestjs/testing';
import type { Queue } from 'bullmq';
import { metricsRegistry } from '@app/core';
import { RANK_COLLECTION_QUEUE } from '../../apps/worker/src/rank-collection/rank-collection.queue';
import { FakeSerpQueue, taskCost } from '../fixtures/fake-serp-queue';
import { AdminClient } from '../helpers/fixtures';
import { createOwnDatabase } from '../helpers/own-database';
import { TestApp, createTestApp } from '../helpers/test-app';
import { startWorker } from '../site-audit/site-audit-helpers';
import { GENEROUS, YourDataAdmin, expectOk, get } from './your-data-fixtures';

/**
 * The worker process's rank collection as it runs by itself: BullMQ's job schedulers post a
 * keyword as soon as the worker starts and collect it at the next poll, and the metrics count it.
 */
describe('rank collection in the worker (job schedulers)', () => {
  const fake = new FakeSerpQueue();
  let t: TestApp;
  // Its own database: collection claims every due keyword of a database, so suites running
  // at the same time (or the demo seed's tracking project) must not share one.
  let db: { url: string; drop: () => Promise<void> } | undefined;
  let worker: TestingModule | undefined;

  beforeAll(async () => {
    await fake.start();
    db = await createOwnDatabase('rankworker');
    t = await createTestApp({
      env: fake.env({
        DATABASE_URL: db.url,
        // Its own queue prefix: another suite's worker must not take its collection jobs.
        REDIS_PREFIX: `${process.env.REDIS_PREFIX}:rankworker`,
        RANK_COLLECTION_ENABLED: 'true',
        RANK_CHECK_INTERVAL_SECONDS: '600',
        RANK_RESULTS_POLL_SECONDS: '1',
      }),
    });
  });
  afterAll(async () => {
    await worker?.close();
    await t?.close();
    await fake.close();
    await db?.drop();
  });

  it('checks a new keyword within seconds of the worker starting, on the schedulers at the configured intervals', async () => {
    const admin = new AdminClient(t.url);
    const acc = await admin.account('pro', GENEROUS);
    const project = await admin.post(`/accounts/${acc.id}/rank-projects`, {
      domain: 'scheduled-shop.com',
      name: 'Scheduled',
      tracking: true,
    });
    expectOk(project, 201);
    fake.serps.set('scheduled keyword', { rank: 7, host: 'www.scheduled-shop.com' });
    const kw = await new YourDataAdmin(admin).keyword(project.body.data.id, 'scheduled keyword', {
      status: 'pending',
    });

    worker = await startWorker(t.config, t.clock);
    const queue = worker.get<Queue>(getQueueToken(RANK_COLLECTION_QUEUE));
    // The worker upserts its schedulers in the background (retried while Redis refuses).
    let schedulers = await queue.getJobSchedulers();
    for (let i = 0; i < 50 && schedulers.length < 3; i++) {
      await new Promise((r) => setTimeout(r, 100));
      schedulers = await queue.getJobSchedulers();
    }
    expect(schedulers.map((s) => [s.key, s.every]).sort()).toEqual([
      ['collect', 1000],
      ['post-due', 600_000],
      ['refresh-metrics', 600_000],
    ]);

    /** The keyword's GET /rank/keywords entry once it has a position (or at the deadline). */
    const waitForPosition = async (keywordId: number, withinMs: number) => {
      const deadline = Date.now() + withinMs;
      let found: Record<string, unknown> | undefined;
      while (Date.now() < deadline) {
        const res = await get(t, acc, '/api/v1/rank/keywords');
        found = (res.body.data.keywords as Array<Record<string, unknown>>).find(
          (k) => k.keyword_id === keywordId,
        );
        if (found?.current_position != null) break;
        await new Promise((r) => setTimeout(r, 250));
      }
      return found;
    };
    const entry = await waitForPosition(kw, 20_000);
    expect(entry).toMatchObject({ current_position: 7, status: 'active' });
    expect(fake.postedCount('scheduled keyword')).toBe(1);

    const tasks = await metricsRegistry.getSingleMetricAsString('provider_tasks_total');
    expect(tasks).toMatch(
      /provider_tasks_total\{endpoint="serp\/google\/organic\/task_post",result="posted"\} [1-9]/,
    );
    expect(tasks).toMatch(/result="collected"\} [1-9]/);
    // Every task this process posted (other tracking projects of the database included) at its price.
    const posted = Number(/result="posted"\} (\d+)/.exec(tasks)![1]);
    const spend = await metricsRegistry.getSingleMetricAsString('provider_spend_usd_total');
    const usd = Number(/endpoint="serp\/google\/organic\/task_post"\} ([\d.e-]+)/.exec(spend)![1]);
    expect(usd).toBeCloseTo(posted * taskCost(100), 9);

    // A keyword added while the worker runs is posted by the next results poll (1 s here),
    // not left for the next post interval (600 s here).
    fake.serps.set('added later', { rank: 3, host: 'shop.scheduled-shop.com' });
    const later = await new YourDataAdmin(admin).keyword(project.body.data.id, 'added later', {
      status: 'pending',
    });
    const laterEntry = await waitForPosition(later, 15_000);
    expect(laterEntry).toMatchObject({ current_position: 3, status: 'active' });
    expect(fake.postedCount('added later')).toBe(1);
    expect(fake.postedCount('scheduled keyword')).toBe(1);

    await admin.post(`/accounts/${acc.id}/rank-projects`, {
      domain: 'scheduled-shop.com',
      name: 'Scheduled',
      tracking: false,
    });
  });
});
