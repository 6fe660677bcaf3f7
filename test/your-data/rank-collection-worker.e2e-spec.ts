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
    const schedulers = await queue.getJobSchedulers();
    expect(schedulers.map((s) => [s.key, s.every]).sort()).toEqual([
      ['collect', 1000],
      ['post-due', 600_000],
      ['refresh-metrics', 600_000],
    ]);

    const deadline = Date.now() + 20_000;
    let entry: Record<string, unknown> | undefined;
    while (Date.now() < deadline) {
      const res = await get(t, acc, '/api/v1/rank/keywords');
      entry = (res.body.data.keywords as Array<Record<string, unknown>>).find(
        (k) => k.keyword_id === kw,
      );
      if (entry?.current_position != null) break;
      await new Promise((r) => setTimeout(r, 250));
    }
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
    await admin.post(`/accounts/${acc.id}/rank-projects`, {
      domain: 'scheduled-shop.com',
      name: 'Scheduled',
      tracking: false,
    });
  });
});
