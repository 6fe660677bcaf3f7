import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import request from 'supertest';
import { SITE_AUDIT_QUEUE } from '@app/site-audit';
import { AdminClient, bearer, TestAccount } from '../helpers/fixtures';
import { createTestApp, TestApp } from '../helpers/test-app';
import { FixtureSite, startFixtureSite } from './fixture-site';
import { POLLING_OVERRIDES, waitForJob } from './site-audit-helpers';
import { WorkerProcess, spawnWorker } from './worker-process';

/**
 * The worker as a real process (the compiled worker when dist is fresh, else the same main.ts
 * transpiled on the fly; see worker-process.ts), killed in the middle of a crawl.
 */
describe('Site-audit worker process: crash (SIGKILL) recovery and graceful SIGTERM', () => {
  // Own queue prefix: the in-process worker of site-audit.e2e-spec.ts never takes these jobs.
  const prefix = `${process.env.REDIS_PREFIX}:crash`;
  const workerEnv = () => ({
    REDIS_PREFIX: prefix,
    AUDIT_ALLOW_PRIVATE_NETWORKS: 'true',
    AUDIT_STALLED_INTERVAL_MS: '1000', // also the lock duration: a killed worker's job is stalled after ~1 s
    AUDIT_POLITENESS_DELAY_MS: '100',
    AUDIT_SWEEP_INTERVAL_MS: '3600000',
  });
  let t: TestApp;
  let site: FixtureSite;
  let acc: TestAccount;
  const running: WorkerProcess[] = [];

  const queue = () => t.app.get<Queue>(getQueueToken(SITE_AUDIT_QUEUE));
  /** Starts a worker process and waits until it is connected to the queue (and is the only one). */
  const start = async (): Promise<WorkerProcess> => {
    const w = spawnWorker(workerEnv());
    running.push(w);
    await w.ready(async () => (await queue().getWorkersCount()) === 1);
    return w;
  };
  const stop = async (w: WorkerProcess, signal: NodeJS.Signals) => {
    w.child.kill(signal);
    const exit = await w.exited;
    // wait until Redis has dropped its connections, so the next start() sees only the new worker
    const deadline = Date.now() + 10_000;
    while ((await queue().getWorkersCount()) > 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    return exit;
  };
  const job = async (id: string) =>
    (await request(t.url).get(`/api/v1/jobs/${id}`).set(bearer(acc.key))).body.data as Record<
      string,
      unknown
    >;
  const untilRunningWithProgress = async (id: string) => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const j = await job(id);
      if (j.status === 'running' && Number(j.progress) > 0) return j;
      if (j.status === 'complete' || j.status === 'failed')
        throw new Error(`job ended too early: ${JSON.stringify(j)}`);
      if (Date.now() > deadline) throw new Error(`job not running: ${JSON.stringify(j)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  beforeAll(async () => {
    site = await startFixtureSite({ articles: 40, delayMs: 80 });
    t = await createTestApp({
      env: { REDIS_PREFIX: prefix, AUDIT_ALLOW_PRIVATE_NETWORKS: 'true' },
    });
    acc = await new AdminClient(t.url).account('agency', POLLING_OVERRIDES);
  }, 60_000);

  afterAll(async () => {
    for (const w of running)
      if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGKILL');
    await Promise.all(running.map((w) => w.exited));
    await t?.close();
    await site?.close();
  });

  it('a worker killed with SIGKILL mid-crawl: the job is recovered as stalled by the next worker and ends complete', async () => {
    const w1 = await start();
    const res = await request(t.url)
      .post('/api/v1/site-audit')
      .set(bearer(acc.key))
      .send({ url: `${site.origin}/`, max_pages: 60 });
    expect(res.status).toBe(202);
    const before = await untilRunningWithProgress(res.body.job_id);
    expect((await stop(w1, 'SIGKILL')).signal).toBe('SIGKILL');
    expect((await job(res.body.job_id)).status).toBe('running'); // nothing ended it

    const w2 = await start();
    const { final, seen } = await waitForJob(t.url, acc.key, res.body.job_id, {
      timeoutMs: 90_000,
      intervalMs: 200,
    });
    expect(final.status).toBe('complete');
    expect(final.progress).toBe(100);
    const progress = [Number(before.progress), ...seen.map((s) => s.progress)];
    for (let i = 1; i < progress.length; i++)
      expect(progress[i]).toBeGreaterThanOrEqual(progress[i - 1]);
    const usage = (await new AdminClient(t.url).get(`/accounts/${acc.id}`)).body.data.usage;
    expect(usage.site_audit_crawls_per_month).toBe(1);
    expect(usage.site_audit_rolling_page_budget).toBe(
      (final.data as { pages_crawled: number }).pages_crawled,
    );

    await stop(w2, 'SIGTERM');
    expect(w2.output()).toContain('stalled'); // logs are flushed at exit
  }, 150_000);

  it('SIGTERM mid-crawl: the worker cancels the crawl, hands the job back to the queue and exits; the next worker completes it', async () => {
    const w1 = await start();
    const res = await request(t.url)
      .post('/api/v1/site-audit')
      .set(bearer(acc.key))
      .send({ url: `${site.origin}/`, max_pages: 60 });
    expect(res.status).toBe(202);
    await untilRunningWithProgress(res.body.job_id);
    const stoppedAt = Date.now();
    const exit = await stop(w1, 'SIGTERM');
    expect(exit.code === 0 || exit.signal === 'SIGTERM').toBe(true);
    expect(Date.now() - stoppedAt).toBeLessThan(15_000);
    expect(w1.output()).toContain('handed back to the queue');

    expect(await queue().getJobState(res.body.job_id)).toBe('waiting');
    const between = await job(res.body.job_id);
    expect(between.status).toBe('running'); // not failed: only the last failure marks the row failed
    expect(between.completed_at).toBeNull();

    const w2 = await start();
    const { final } = await waitForJob(t.url, acc.key, res.body.job_id, {
      timeoutMs: 90_000,
      intervalMs: 200,
    });
    expect(final.status).toBe('complete');
    await stop(w2, 'SIGTERM');
  }, 150_000);
});
