import http from 'node:http';
import type { TestingModule } from '@nestjs/testing';
import request from 'supertest';
import { addDays } from '@app/core';
import { JobEventsSubscriber, JobLifecycleService, newJobId } from '@app/site-audit';
import { JobLongPollService } from '../../apps/api/src/site-audit/job-long-poll.service';
import { AdminClient, TestAccount, bearer } from '../helpers/fixtures';
import { createTestApp, TestApp } from '../helpers/test-app';
import { FixtureSite, startFixtureSite } from './fixture-site';
import { POLLING_OVERRIDES, startWorker } from './site-audit-helpers';

/**
 * Long-poll GET /jobs/{job_id}?wait=N (issue 14): answered when the job turns terminal (Redis
 * event published after the commit, any API instance), or at the deadline with the current
 * state; one metered call; bounded per account and per process; answered on shutdown.
 */
const WAITING = { JOBS_WAIT_MAX_PER_ACCOUNT: '3' };

describe('GET /jobs/{job_id}?wait=N (long-poll)', () => {
  let a: TestApp; // total bound 4
  let b: TestApp;
  let admin: AdminClient;
  let site: FixtureSite;
  let worker: TestingModule | undefined;

  const env = {
    AUDIT_ALLOW_PRIVATE_NETWORKS: 'true',
    AUDIT_POLITENESS_DELAY_MS: '50',
    AUDIT_JOB_DEADLINE_SECONDS: '600',
    ...WAITING,
  };
  const poll = (app: TestApp, key: string, jobId: string, wait?: string | number) =>
    request(app.url)
      .get(`/api/v1/jobs/${jobId}${wait === undefined ? '' : `?wait=${wait}`}`)
      .set(bearer(key));
  const usedCalls = async (acc: TestAccount) =>
    (await admin.get(`/accounts/${acc.id}`)).body.data.usage.api_calls_per_month as number;
  const waiting = (app: TestApp) => app.app.get(JobLongPollService).waiting;
  const until = async (what: () => boolean, timeoutMs = 5_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!what()) {
      if (Date.now() > deadline) throw new Error('condition not reached in time');
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  /** A queued job row (real insert with its page-budget row), never enqueued: it waits for us. */
  const queuedJob = async (app: TestApp, accountId: number): Promise<string> => {
    const jobId = newJobId();
    const now = new Date();
    const created = await app.app.get(JobLifecycleService).createQueued({
      jobId,
      accountId,
      url: 'https://example.com/',
      depth: 1,
      requestedPages: 1,
      pagesPerCrawl: 100,
      rollingBudget: 100_000,
      crawlsPerMonth: 1_000,
      at: null,
      requestId: null,
      now,
      deadlineAt: addDays(now, 1),
    });
    expect(created.ok).toBe(true);
    return jobId;
  };
  /** The real terminal path (transaction, then the Redis event). */
  const fail = (app: TestApp, jobId: string) =>
    app.app
      .get(JobLifecycleService)
      .failAudit(
        jobId,
        { code: 'UNREACHABLE', message: 'test' },
        { refund: false, pagesUsed: 0 },
        new Date(),
      );

  beforeAll(async () => {
    site = await startFixtureSite({ articles: 4 });
    a = await createTestApp({ env: { ...env, JOBS_WAIT_MAX_TOTAL: '4' } });
    b = await createTestApp({ env });
    admin = new AdminClient(a.url);
  }, 60_000);

  afterAll(async () => {
    await worker?.close();
    await a?.close();
    await b?.close();
    await site?.close();
  });

  it('several waiting clients on two API instances are all answered when the worker finishes', async () => {
    const acc = await admin.account('pro', POLLING_OVERRIDES);
    const started = await request(a.url)
      .post('/api/v1/site-audit')
      .set(bearer(acc.key))
      .send({ url: `${site.origin}/`, max_pages: 5, depth: 2 });
    expect(started.status).toBe(202);
    const jobId = started.body.job_id as string;
    // The 202's poll URL is unchanged (clients compare it); ?wait= is added by the client.
    expect(started.body.poll).toBe(`${a.config.publicBaseUrl}/api/v1/jobs/${jobId}`);

    const t0 = Date.now();
    const answers = [a, a, a, b, b, b].map((app) => poll(app, acc.key, jobId, 60).then((r) => r));
    await until(() => waiting(a) === 3 && waiting(b) === 3);
    worker = await startWorker(a.config, a.clock); // no worker until everyone waits
    const results = await Promise.all(answers);
    for (const r of results) {
      expect(r.status).toBe(200);
      expect(r.body.data).toMatchObject({ job_id: jobId, status: 'complete', progress: 100 });
    }
    expect(Date.now() - t0).toBeLessThan(30_000); // answered by the event, not at the 60 s deadline
    expect(waiting(a) + waiting(b)).toBe(0);
  }, 60_000);

  it('an audit with wait=60 finishes in one long-poll call: 2 calls on the meter (POST + GET)', async () => {
    expect(worker).toBeDefined();
    const acc = await admin.account('pro'); // the plan's meter (20 calls a month)
    const before = await usedCalls(acc);
    const started = await request(b.url)
      .post('/api/v1/site-audit')
      .set(bearer(acc.key))
      .send({ url: `${site.origin}/`, max_pages: 5, depth: 2 });
    expect(started.status).toBe(202);
    const res = await poll(b, acc.key, started.body.job_id, 60);
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('complete');
    expect(res.body.data.data.report_url).toEqual(expect.any(String));
    expect(await usedCalls(acc)).toBe(before + 2);
  }, 60_000);

  it('`wait` is an integer 0-60: anything else is 422 VALIDATION_ERROR; wait=0 and no wait answer at once', async () => {
    const acc = await admin.account('pro', POLLING_OVERRIDES);
    const jobId = await queuedJob(a, acc.id);
    for (const bad of ['61', '-1', '1.5', 'abc', '', '1e1', '10&wait=20']) {
      const res = await poll(a, acc.key, jobId, bad);
      expect({ bad, status: res.status, code: res.body.error?.code }).toEqual({
        bad,
        status: 422,
        code: 'VALIDATION_ERROR',
      });
    }
    for (const ok of [undefined, 0, '0']) {
      const t0 = Date.now();
      const res = await poll(a, acc.key, jobId, ok);
      expect(res.status).toBe(200);
      expect(res.body.data.status).toBe('queued');
      expect(Date.now() - t0).toBeLessThan(1_000);
    }
    expect(await fail(a, jobId)).toBe(true);
  });

  it("another account's job (and an unknown id) is 404 at once, nothing waits", async () => {
    const owner = await admin.account('pro', POLLING_OVERRIDES);
    const other = await admin.account('pro', POLLING_OVERRIDES);
    const jobId = await queuedJob(a, owner.id);
    for (const id of [jobId, newJobId()]) {
      const t0 = Date.now();
      const res = await poll(a, other.key, id, 60);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
      expect(Date.now() - t0).toBeLessThan(1_000);
    }
    expect(waiting(a)).toBe(0);
    await fail(a, jobId);
  });

  it('a short wait answers at its deadline with the current state', async () => {
    const acc = await admin.account('pro', POLLING_OVERRIDES);
    const jobId = await queuedJob(a, acc.id);
    const t0 = Date.now();
    const res = await poll(a, acc.key, jobId, 1);
    const elapsed = Date.now() - t0;
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('queued');
    expect(elapsed).toBeGreaterThanOrEqual(950);
    expect(elapsed).toBeLessThan(3_000);
    await fail(a, jobId);
  });

  it('bounds: beyond 3 per account or 4 in total on the process, a wait is answered at once (200, current state)', async () => {
    const one = await admin.account('pro', POLLING_OVERRIDES);
    const two = await admin.account('pro', POLLING_OVERRIDES);
    const jobOne = await queuedJob(a, one.id);
    const jobTwo = await queuedJob(a, two.id);
    const held = [1, 2, 3].map(() => poll(a, one.key, jobOne, 60).then((r) => r));
    await until(() => waiting(a) === 3);

    let t0 = Date.now();
    const perAccount = await poll(a, one.key, jobOne, 60); // 4th of the account
    expect(perAccount.status).toBe(200);
    expect(perAccount.body.data.status).toBe('queued');
    expect(Date.now() - t0).toBeLessThan(1_000);

    const fourth = poll(a, two.key, jobTwo, 60).then((r) => r); // another account still waits
    await until(() => waiting(a) === 4);
    t0 = Date.now();
    const total = await poll(a, two.key, jobTwo, 60); // 5th on the process
    expect(total.status).toBe(200);
    expect(total.body.data.status).toBe('queued');
    expect(Date.now() - t0).toBeLessThan(1_000);
    // Another instance has its own bounds.
    const elsewhere = poll(b, one.key, jobOne, 60).then((r) => r);
    await until(() => waiting(b) === 1);

    // The failures (real terminal path: commit, then the event) release every waiter.
    await fail(a, jobOne);
    await fail(a, jobTwo);
    for (const r of await Promise.all([...held, fourth, elsewhere])) {
      expect(r.status).toBe(200);
      expect(r.body.data.status).toBe('failed');
    }
    expect(waiting(a)).toBe(0);
    expect(waiting(b)).toBe(0);
  });

  it('a client that disconnects frees its waiter', async () => {
    const acc = await admin.account('pro', POLLING_OVERRIDES);
    const jobId = await queuedJob(a, acc.id);
    const req = http.get(`${a.url}/api/v1/jobs/${jobId}?wait=60`, { headers: bearer(acc.key) });
    req.on('error', () => undefined);
    await until(() => waiting(a) === 1);
    req.destroy();
    await until(() => waiting(a) === 0);
    await fail(a, jobId);
  });

  describe('a third instance: Redis subscription down, then shutdown', () => {
    let c: TestApp;
    let acc: TestAccount;

    beforeAll(async () => {
      c = await createTestApp({ env: { ...env, JOBS_WAIT_RECHECK_MS: '200' } });
      acc = await admin.account('pro', POLLING_OVERRIDES);
    });
    afterAll(async () => {
      await c?.close().catch(() => undefined);
    });

    it('with the subscription down, waiters notice the terminal state at the coarse re-check', async () => {
      const jobId = await queuedJob(c, acc.id);
      const events = c.app.get(JobEventsSubscriber);
      await events.onApplicationShutdown(); // closes the subscriber connection (no more events)
      expect(events.live).toBe(false);
      const answer = poll(c, acc.key, jobId, 60).then((r) => r);
      await until(() => waiting(c) === 1);
      await fail(c, jobId);
      const t0 = Date.now();
      const res = await answer;
      expect(res.body.data.status).toBe('failed');
      expect(Date.now() - t0).toBeLessThan(2_000);
    });

    it('shutdown (app.close) answers every waiting client promptly with the current state', async () => {
      const jobs = [await queuedJob(c, acc.id), await queuedJob(c, acc.id)];
      const answers = [jobs[0], jobs[0], jobs[1]].map((id) =>
        poll(c, acc.key, id, 60).then((r) => r),
      );
      await until(() => waiting(c) === 3);
      const t0 = Date.now();
      const closed = c.close();
      const results = await Promise.all(answers);
      expect(Date.now() - t0).toBeLessThan(3_000);
      for (const r of results) {
        expect(r.status).toBe(200);
        expect(r.body.data.status).toBe('queued');
      }
      await closed;
      for (const id of jobs) await fail(a, id);
    });
  });
});
