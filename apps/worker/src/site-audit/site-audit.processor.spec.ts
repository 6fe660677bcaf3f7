import { Logger } from '@nestjs/common';
import type { Job, Worker } from 'bullmq';
import { ManualClock, loadConfig } from '@app/core';
import { CrawlError, runAudit } from '@app/crawler';
import type { JobEntity } from '@app/database';
import type {
  JobLifecycleService,
  JobRecordsRepository,
  SiteAuditJobPayload,
} from '@app/site-audit';
import { SiteAuditProcessor } from './site-audit.processor';

jest.mock('@app/crawler', () => ({ ...jest.requireActual('@app/crawler'), runAudit: jest.fn() }));
const runAuditMock = runAudit as jest.MockedFunction<typeof runAudit>;

const NOW = new Date('2026-11-21T12:00:00Z');

function row(overrides: Partial<JobEntity> = {}): JobEntity {
  return {
    id: 'job_AAAAAAAAAAAAAAAAAAAAAA',
    accountId: 7,
    endpoint: 'site-audit',
    status: 'running',
    progress: 0,
    params: { url: 'https://example.com/', depth: 3, max_pages: 10, requested_max_pages: 10 },
    data: null,
    error: null,
    attempts: 1,
    quotaPeriodStart: '2026-11-01',
    requestId: 'req-1',
    createdAt: NOW,
    updatedAt: NOW,
    startedAt: NOW,
    completedAt: null,
    deadlineAt: new Date(NOW.getTime() + 1_800_000),
    webhookUrl: null,
    ...overrides,
  };
}

function setup(markRunning: JobEntity | null = row()) {
  // Typed fakes: each member is checked against the real class's method of that name.
  const records: jest.Mocked<Pick<JobRecordsRepository, 'markRunning' | 'reportProgress'>> = {
    markRunning: jest.fn().mockResolvedValue(markRunning),
    reportProgress: jest.fn().mockResolvedValue(true),
  };
  const jobs: jest.Mocked<Pick<JobLifecycleService, 'failAudit' | 'completeWithAudit'>> = {
    failAudit: jest.fn().mockResolvedValue(true),
    completeWithAudit: jest
      .fn()
      .mockImplementation(async (_j, auditId: string) => ({ audit_id: auditId })),
  };
  const processor = new SiteAuditProcessor(
    loadConfig({ AUDIT_CRAWL_TIME_LIMIT_SECONDS: '60' }),
    jobs as unknown as JobLifecycleService,
    records as unknown as JobRecordsRepository,
    new ManualClock(NOW),
  );
  // The BullMQ worker @nestjs/bullmq would attach, through WorkerHost's public `worker` getter.
  const close = jest.fn().mockResolvedValue(undefined);
  jest.spyOn(processor, 'worker', 'get').mockReturnValue({ close } as unknown as Worker);
  return { processor, jobs, records, close };
}

function job(attemptsMade = 0): Job<SiteAuditJobPayload> & { moveToWait: jest.Mock } {
  return {
    data: { jobId: 'job_AAAAAAAAAAAAAAAAAAAAAA', accountId: 7 },
    attemptsMade,
    opts: { attempts: 3 },
    moveToWait: jest.fn().mockResolvedValue(0),
  } as unknown as Job<SiteAuditJobPayload> & { moveToWait: jest.Mock };
}

const result = {
  startUrl: 'https://example.com/',
  domain: 'example.com',
  pagesCrawled: 4,
  pages: [],
  issues: [],
  issueCounts: { critical: 0, warning: 0, notice: 0, total: 0 },
  ruleSummary: [],
  totalScore: 90,
  geoScore: 50,
  geo: { checks: [] },
  truncated: false,
  startedAt: NOW,
  finishedAt: NOW,
};

describe('SiteAuditProcessor', () => {
  beforeAll(() => Logger.overrideLogger(false));
  beforeEach(() => runAuditMock.mockReset());

  it('runs the crawl with the job parameters and the configured limits, then completes with the audit', async () => {
    const { processor, jobs } = setup();
    runAuditMock.mockImplementation(async (o) => {
      await o.onProgress?.(2, 4);
      return result;
    });
    const out = await processor.process(job(), 'token');
    expect(out.outcome).toBe('complete');
    expect(runAuditMock).toHaveBeenCalledWith(
      expect.objectContaining({
        startUrl: 'https://example.com/',
        maxPages: 10,
        maxDepth: 3,
        timeLimitMs: 60_000,
      }),
    );
    expect(jobs.completeWithAudit).toHaveBeenCalledWith(
      { jobId: 'job_AAAAAAAAAAAAAAAAAAAAAA', accountId: 7, maxPages: 10, depth: 3 },
      expect.stringMatching(/^aud_/),
      result,
      NOW,
    );
  });

  it('skips a job whose row is already terminal (swept or failed)', async () => {
    const { processor } = setup(null);
    expect((await processor.process(job(), 'token')).outcome).toBe('skipped');
    expect(runAuditMock).not.toHaveBeenCalled();
  });

  it('fails a job past its deadline without crawling, with a refund', async () => {
    const { processor, jobs } = setup(row({ deadlineAt: new Date(NOW.getTime() - 1) }));
    await processor.process(job(), 'token');
    expect(runAuditMock).not.toHaveBeenCalled();
    expect(jobs.failAudit).toHaveBeenCalledWith(
      'job_AAAAAAAAAAAAAAAAAAAAAA',
      expect.objectContaining({ code: 'DEADLINE_EXCEEDED' }),
      { refund: true, pagesUsed: 0 },
      NOW,
    );
  });

  it('the crawl never runs past the job deadline', async () => {
    const { processor } = setup(row({ deadlineAt: new Date(NOW.getTime() + 5_000) }));
    runAuditMock.mockResolvedValue(result);
    await processor.process(job(), 'token');
    expect(runAuditMock.mock.calls[0][0].timeLimitMs).toBe(5_000);
  });

  it('a site failure ends the row failed at once, keeping the crawl count and the pages fetched', async () => {
    const { processor, jobs } = setup();
    runAuditMock.mockRejectedValue(new CrawlError('UNREACHABLE', 'connect ECONNREFUSED'));
    expect((await processor.process(job(0), 'token')).outcome).toBe('failed');
    expect(jobs.failAudit).toHaveBeenCalledWith(
      'job_AAAAAAAAAAAAAAAAAAAAAA',
      expect.objectContaining({ code: 'UNREACHABLE' }),
      { refund: false, pagesUsed: 0 },
      NOW,
    );
  });

  it('only the last failure marks the row failed: earlier attempts rethrow for a retry with backoff', async () => {
    const { processor, jobs } = setup();
    runAuditMock.mockRejectedValue(new Error('database connection lost'));
    await expect(processor.process(job(0), 'token')).rejects.toThrow('database connection lost');
    await expect(processor.process(job(1), 'token')).rejects.toThrow('database connection lost');
    expect(jobs.failAudit).not.toHaveBeenCalled();
    await expect(processor.process(job(2), 'token')).rejects.toThrow('database connection lost');
    expect(jobs.failAudit).toHaveBeenCalledWith(
      'job_AAAAAAAAAAAAAAAAAAAAAA',
      expect.objectContaining({ code: 'INTERNAL_ERROR' }),
      { refund: true, pagesUsed: 0 },
      NOW,
    );
  });

  it('a job swept while crawling: the next progress write aborts the crawl and nothing is stored', async () => {
    const { processor, jobs, records } = setup();
    records.reportProgress.mockResolvedValue(false);
    runAuditMock.mockImplementation(async (o) => {
      await o.onProgress?.(1, 10);
      if (o.signal?.aborted) throw new CrawlError('CANCELLED', 'crawl cancelled');
      return result;
    });
    expect((await processor.process(job(), 'token')).outcome).toBe('gone');
    expect(jobs.completeWithAudit).not.toHaveBeenCalled();
    expect(jobs.failAudit).not.toHaveBeenCalled();
  });

  it('SIGTERM: the running crawl is cancelled and the job handed back to the queue (no attempt used)', async () => {
    const { processor, close, jobs } = setup();
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    runAuditMock.mockImplementation(
      (o) =>
        new Promise((_, reject) => {
          started();
          o.signal?.addEventListener('abort', () =>
            reject(new CrawlError('CANCELLED', 'crawl cancelled')),
          );
        }),
    );
    const j = job(2); // even on the last attempt
    const processing = processor.process(j, 'token');
    await running;
    await processor.beforeApplicationShutdown();
    await expect(processing).rejects.toMatchObject({ name: 'WaitingError' });
    expect(j.moveToWait).toHaveBeenCalledWith('token');
    expect(close).toHaveBeenCalled();
    expect(jobs.failAudit).not.toHaveBeenCalled();
  });
});
