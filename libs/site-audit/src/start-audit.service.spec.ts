import { Logger } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { ApiError, ManualClock, loadConfig } from '@app/core';
import type { AuthContext } from '@app/accounts';
import { redisOutOfMemory } from '@app/database';
import { resolveLimits } from '@app/plans';
import type { JobLifecycleService } from './job-lifecycle.service';
import { StartAuditService } from './start-audit.service';
import { SiteAuditJobPayload, SiteAuditQueue } from './site-audit.queue';

const auth: AuthContext = {
  keyId: 1,
  keyLabel: 'k',
  accountId: 7,
  plan: 'pro',
  limits: resolveLimits('pro', {}),
  grantId: 0,
};
function service(
  overrides: {
    add?: jest.Mock;
    createQueued?: jest.Mock;
    config?: Record<string, string>;
  } = {},
) {
  // Typed fakes: each member is checked against the real class's method of that name.
  const queue: jest.Mocked<Pick<Queue<SiteAuditJobPayload>, 'add'>> = {
    add: overrides.add ?? jest.fn().mockResolvedValue({}),
  };
  const jobs: jest.Mocked<Pick<JobLifecycleService, 'createQueued' | 'failAudit'>> = {
    createQueued: overrides.createQueued ?? jest.fn().mockResolvedValue({ ok: true, maxPages: 5 }),
    failAudit: jest.fn().mockResolvedValue(true),
  };
  const config = loadConfig({ AUDIT_ALLOW_PRIVATE_NETWORKS: 'true', ...overrides.config });
  const svc = new StartAuditService(
    config,
    new SiteAuditQueue(queue as unknown as Queue<SiteAuditJobPayload>),
    jobs as unknown as JobLifecycleService,
    new ManualClock(new Date('2026-11-21T12:00:00Z')),
  );
  return { svc, queue, jobs };
}

const body = { url: 'http://127.0.0.1:9/', max_pages: 5 };

describe('StartAuditService: reservations are given back on every failure path', () => {
  beforeAll(() => Logger.overrideLogger(false));
  it('enqueue failure: the job is failed with ENQUEUE_FAILED and the crawl + pages refunded; 500 SERVER_ERROR', async () => {
    const { svc, jobs } = service({ add: jest.fn().mockRejectedValue(new Error('redis down')) });
    await expect(svc.start(auth, body, 'req-1')).rejects.toMatchObject({ code: 'SERVER_ERROR' });
    expect(jobs.failAudit).toHaveBeenCalledWith(
      expect.stringMatching(/^job_/),
      expect.objectContaining({ code: 'ENQUEUE_FAILED' }),
      { refund: true, pagesUsed: 0 },
      expect.any(Date),
    );
  });

  it('Redis full (OOM, noeviction): ENQUEUE_FAILED with refund, 500 SERVER_ERROR + Retry-After whose cause the filter reads as Redis refusing writes, no error line', async () => {
    const oom = Object.assign(
      new Error("OOM command not allowed when used memory > 'maxmemory'."),
      { name: 'ReplyError' },
    );
    const { svc, jobs } = service({ add: jest.fn().mockRejectedValue(oom) });
    const logged = jest.spyOn(Logger.prototype, 'error');
    try {
      const err = (await svc.start(auth, body, 'req-oom').catch((e: unknown) => e)) as ApiError;
      expect(err.code).toBe('SERVER_ERROR');
      expect(err.headers).toEqual({ 'Retry-After': 2 });
      expect(redisOutOfMemory(err)).toBe(true);
      expect(jobs.failAudit).toHaveBeenCalledWith(
        expect.stringMatching(/^job_/),
        expect.objectContaining({ code: 'ENQUEUE_FAILED' }),
        { refund: true, pagesUsed: 0 },
        expect.any(Date),
      );
      expect(logged).not.toHaveBeenCalled();
    } finally {
      logged.mockRestore();
    }
  });

  it('a queue connection waiting for Redis: answered within REDIS_COMMAND_TIMEOUT_MS, SERVER_ERROR with Retry-After, refunded', async () => {
    const { svc, jobs } = service({
      add: jest.fn().mockReturnValue(new Promise(() => undefined)), // never settles
      config: { REDIS_COMMAND_TIMEOUT_MS: '100' },
    });
    const started = Date.now();
    const err = (await svc.start(auth, body, 'req-1b').catch((e: unknown) => e)) as ApiError;
    expect(Date.now() - started).toBeLessThan(1000);
    expect(err.code).toBe('SERVER_ERROR');
    expect(err.headers).toEqual({ 'Retry-After': 2 });
    expect(jobs.failAudit).toHaveBeenCalledWith(
      expect.stringMatching(/^job_/),
      expect.objectContaining({ code: 'ENQUEUE_FAILED' }),
      { refund: true, pagesUsed: 0 },
      expect.any(Date),
    );
  });

  // The crawl unit is taken in createQueued's transaction with the job row, and rolled back
  // with it on a refusal or an error: test/site-audit/site-audit-crawl-cut.e2e-spec.ts.
  it('page budget used up: 429 QUOTA_EXCEEDED names the budget, nothing enqueued', async () => {
    const { svc, queue } = service({
      createQueued: jest.fn().mockResolvedValue({
        ok: false,
        quota: 'site_audit_rolling_page_budget',
        limit: 10,
        used: 10,
        resetsAt: new Date('2026-12-01T08:00:00Z'),
      }),
    });
    const err = (await svc.start(auth, body, 'req-2').catch((e: unknown) => e)) as ApiError;
    expect(err.code).toBe('QUOTA_EXCEEDED');
    expect(err.meta).toEqual({
      quota: 'site_audit_rolling_page_budget',
      limit: 10,
      used: 10,
      resets_at: '2026-12-01 08:00:00',
    });
    expect(queue.add).not.toHaveBeenCalled();
  });

  it('a database error while creating the job is thrown, nothing enqueued', async () => {
    const { svc, queue } = service({
      createQueued: jest.fn().mockRejectedValue(new Error('db down')),
    });
    await expect(svc.start(auth, body, 'req-3')).rejects.toThrow('db down');
    expect(queue.add).not.toHaveBeenCalled();
  });

  it('monthly crawl count used up: 429 with resets_at the month after the database month, nothing enqueued', async () => {
    const { svc, queue, jobs } = service({
      createQueued: jest.fn().mockResolvedValue({
        ok: false,
        quota: 'site_audit_crawls_per_month',
        limit: 10,
        periodStart: '2026-12-01',
      }),
    });
    const err = (await svc.start(auth, body, 'req-4').catch((e: unknown) => e)) as ApiError;
    expect(err.code).toBe('QUOTA_EXCEEDED');
    expect(err.meta).toEqual({
      quota: 'site_audit_crawls_per_month',
      limit: 10,
      resets_at: '2027-01-01',
    });
    expect(jobs.createQueued).toHaveBeenCalledWith(
      expect.objectContaining({ crawlsPerMonth: auth.limits.site_audit_crawls_per_month }),
    );
    expect(queue.add).not.toHaveBeenCalled();
  });

  it('enqueues ids only, with the BullMQ job id = the public job id', async () => {
    const { svc, queue } = service();
    const accepted = await svc.start(auth, body, 'req-5');
    expect(queue.add).toHaveBeenCalledWith(
      'crawl',
      { jobId: accepted.jobId, accountId: 7 },
      { jobId: accepted.jobId },
    );
    expect(accepted.maxPages).toBe(5);
  });
});
