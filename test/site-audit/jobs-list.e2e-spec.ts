import request from 'supertest';
import { addDays } from '@app/core';
import { JobLifecycleService, JobRecordsRepository, newJobId } from '@app/site-audit';
import { AdminClient, TestAccount, bearer } from '../helpers/fixtures';
import { createTestApp, TestApp } from '../helpers/test-app';
import { POLLING_OVERRIDES } from './site-audit-helpers';

/**
 * GET /api/v1/jobs (issue 36 item 2 / issue 41 item 4; an extension of the spec): the
 * account's jobs newest first, each the record GET /jobs/{job_id} answers, filtered by status,
 * paged by limit/offset with meta.total; other accounts' jobs never shown; bad input 422.
 */
describe('GET /api/v1/jobs (the account’s jobs, newest first)', () => {
  let t: TestApp;
  let admin: AdminClient;
  let acc: TestAccount;
  let other: TestAccount;
  /** acc's jobs, oldest first: queued, running, failed, complete, queued. */
  const ids: string[] = [];
  let otherJob: string;

  const list = (key: string, query: string) =>
    request(t.url).get(`/api/v1/jobs${query}`).set(bearer(key));
  const usedCalls = async (a: TestAccount) =>
    (await admin.get(`/accounts/${a.id}`)).body.data.usage.api_calls_per_month as number;

  /** A queued job row created at `at` (the real start-audit insert, never enqueued). */
  const queuedJob = async (accountId: number, at: Date): Promise<string> => {
    const jobId = newJobId();
    const created = await t.app.get(JobLifecycleService).createQueued({
      jobId,
      accountId,
      url: 'https://example.com/',
      depth: 1,
      requestedPages: 1,
      pagesPerCrawl: 100,
      rollingBudget: 100_000,
      crawlsPerMonth: 1000,
      at,
      requestId: null,
      now: at,
      deadlineAt: addDays(at, 1),
    });
    expect(created.ok).toBe(true);
    return jobId;
  };

  beforeAll(async () => {
    t = await createTestApp({ now: '2026-11-20T12:00:00Z' });
    admin = new AdminClient(t.url);
    acc = await admin.account('pro', POLLING_OVERRIDES);
    other = await admin.account('pro', POLLING_OVERRIDES);
    const jobs = t.app.get(JobLifecycleService);
    const base = Date.parse('2026-11-20T10:00:00Z');
    for (let i = 0; i < 5; i++) ids.push(await queuedJob(acc.id, new Date(base + i * 60_000)));
    const records = t.app.get(JobRecordsRepository);
    await records.markRunning(ids[1], new Date(base + 90_000));
    await records.markRunning(ids[2], new Date(base + 150_000));
    await jobs.failAudit(
      ids[2],
      { code: 'UNREACHABLE', message: 'The start page could not be fetched.' },
      { refund: false, pagesUsed: 0 },
      new Date(base + 160_000),
    );
    // complete as the worker leaves it (the audit row itself is not needed by the list)
    await t.db.query(
      `UPDATE jobs SET status = 'complete', progress = 100, completed_at = $2, updated_at = $2,
         data = $3::jsonb WHERE id = $1`,
      [
        ids[3],
        new Date(base + 200_000),
        JSON.stringify({
          audit_id: 'aud_0123456789abcdefghijkl',
          domain: 'example.com',
          pages_crawled: 3,
          total_score: 80,
          geo_score: 60,
          issues: { critical: 0, warning: 1, total: 2 },
        }),
      ],
    );
    // another account's job, the newest of all
    otherJob = await queuedJob(other.id, new Date(base + 3_600_000));
  }, 120_000);

  afterAll(async () => {
    await t?.close();
  });

  it('lists the account’s jobs newest first, each equal to GET /jobs/{job_id}; meta.total, limit, offset; one call', async () => {
    const before = await usedCalls(acc);
    const res = await list(acc.key, '');
    expect(res.status).toBe(200);
    expect(await usedCalls(acc)).toBe(before + 1);
    const data = res.body.data as { jobs: Array<Record<string, unknown>>; count: number };
    expect(data.jobs.map((j) => j.job_id)).toEqual([...ids].reverse());
    expect(data.count).toBe(5);
    expect(res.body.meta).toMatchObject({ total: 5, limit: 20, offset: 0 });
    expect(data.jobs.map((j) => j.status)).toEqual([
      'queued',
      'complete',
      'failed',
      'running',
      'queued',
    ]);
    for (const job of data.jobs) {
      const one = await request(t.url)
        .get(`/api/v1/jobs/${String(job.job_id)}`)
        .set(bearer(acc.key));
      expect(job).toEqual(one.body.data);
    }
    const complete = data.jobs[1] as { data: { report_url: string } };
    expect(complete.data.report_url).toBe(
      `${t.config.publicBaseUrl}/reports/audits/aud_0123456789abcdefghijkl`,
    );
    expect(data.jobs[2].error).toEqual({
      code: 'UNREACHABLE',
      message: 'The start page could not be fetched.',
    });
  });

  it('another account’s jobs are never shown (each account sees only its own)', async () => {
    const mine = await list(acc.key, '?limit=100');
    expect(mine.body.data.jobs.map((j: { job_id: string }) => j.job_id)).not.toContain(otherJob);
    const theirs = await list(other.key, '');
    expect(theirs.status).toBe(200);
    expect(theirs.body.data.jobs.map((j: { job_id: string }) => j.job_id)).toEqual([otherJob]);
    expect(theirs.body.meta.total).toBe(1);
    const fresh = await admin.account('pro');
    const none = await list(fresh.key, '');
    expect(none.body.data).toEqual({ jobs: [], count: 0 });
    expect(none.body.meta.total).toBe(0);
  });

  it('status filters; total counts the matches of the filter', async () => {
    const expected: Record<string, string[]> = {
      queued: [ids[4], ids[0]],
      running: [ids[1]],
      failed: [ids[2]],
      complete: [ids[3]],
    };
    for (const [status, want] of Object.entries(expected)) {
      const res = await list(acc.key, `?status=${status}`);
      expect(res.status).toBe(200);
      expect(res.body.data.jobs.map((j: { job_id: string }) => j.job_id)).toEqual(want);
      expect(res.body.data.jobs.every((j: { status: string }) => j.status === status)).toBe(true);
      expect(res.body.meta.total).toBe(want.length);
    }
  });

  it('pages with limit and offset, newest first, without gaps or repeats', async () => {
    const newestFirst = [...ids].reverse();
    const seen: string[] = [];
    for (let offset = 0; offset < 6; offset += 2) {
      const res = await list(acc.key, `?limit=2&offset=${offset}`);
      expect(res.status).toBe(200);
      expect(res.body.meta).toEqual(expect.objectContaining({ total: 5, limit: 2, offset }));
      expect(res.body.data.count).toBe(res.body.data.jobs.length);
      seen.push(...res.body.data.jobs.map((j: { job_id: string }) => j.job_id));
    }
    expect(seen).toEqual(newestFirst);
    const past = await list(acc.key, '?offset=50&limit=100');
    expect(past.status).toBe(200);
    expect(past.body.data).toEqual({ jobs: [], count: 0 });
    expect(past.body.meta).toMatchObject({ total: 5, limit: 100, offset: 50 });
    const filtered = await list(acc.key, '?status=queued&limit=1&offset=1');
    expect(filtered.body.data.jobs.map((j: { job_id: string }) => j.job_id)).toEqual([ids[0]]);
    expect(filtered.body.meta.total).toBe(2);
  });

  it('bad input is 422 VALIDATION_ERROR naming the field, and nothing is listed', async () => {
    const cases: Array<[string, string]> = [
      ['?status=bogus', 'status'],
      ['?status=', 'status'],
      ['?status=QUEUED', 'status'],
      ['?status=queued&status=running', 'status'],
      ['?status=%3Cscript%3E', 'status'],
      ['?limit=0', 'limit'],
      ['?limit=101', 'limit'],
      ['?limit=abc', 'limit'],
      ['?limit=1.5', 'limit'],
      ['?limit=', 'limit'],
      ['?limit=1&limit=2', 'limit'],
      ['?offset=-1', 'offset'],
      ['?offset=abc', 'offset'],
      ['?offset=2147483648', 'offset'],
      ['?offset=1e3', 'offset'],
    ];
    for (const [query, field] of cases) {
      const res = await list(acc.key, query);
      expect({ query, status: res.status, code: res.body.error?.code }).toEqual({
        query,
        status: 422,
        code: 'VALIDATION_ERROR',
      });
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
      expect(res.body.data).toBeUndefined();
    }
  });

  it('needs a key: 401 without one', async () => {
    const res = await request(t.url).get('/api/v1/jobs');
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHORIZED');
  });
});
