import type { TestingModule } from '@nestjs/testing';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { AdminClient, TestAccount, bearer } from '../helpers/fixtures';
import { createTestApp, TestApp } from '../helpers/test-app';
import { FixtureSite, startFixtureSite } from '../site-audit/fixture-site';
import { POLLING_OVERRIDES, startWorker, waitForJob } from '../site-audit/site-audit-helpers';
import {
  Connector,
  ToolResult,
  allText,
  buildConnector,
  connect,
  toolOk,
  usedCalls as countCalls,
} from './mcp-harness';

/**
 * Site-audit tools of the MCP connector against the real API and an in-process worker crawling a
 * local fixture site: start_site_audit + get_job, and run_site_audit's bounded polling.
 */
const JOB_ID = /^job_[0-9A-Za-z]+$/;

describe('MCP site-audit tools (spec: POST /site-audit, GET /jobs/{job_id})', () => {
  let t: TestApp;
  let admin: AdminClient;
  let worker: TestingModule;
  let site: FixtureSite;
  let slowSite: FixtureSite;
  const open: Connector[] = [];
  const connectAs = async (acc: TestAccount, env: Record<string, string> = {}) => {
    const c = await connect({
      SEO_API_KEY: acc.key,
      SEO_API_BASE_URL: t.url,
      SEO_MCP_POLL_INTERVAL_MS: '200',
      SEO_MCP_MAX_WAIT_MS: '30000',
      ...env,
    });
    open.push(c);
    return c;
  };
  const usedCalls = (acc: TestAccount) => countCalls(admin, acc);
  const ok = toolOk;

  beforeAll(async () => {
    buildConnector();
    site = await startFixtureSite({ articles: 6 });
    slowSite = await startFixtureSite({ articles: 2, delayMs: 2500 });
    t = await createTestApp({
      env: {
        AUDIT_ALLOW_PRIVATE_NETWORKS: 'true',
        AUDIT_POLITENESS_DELAY_MS: '50',
        AUDIT_JOB_DEADLINE_SECONDS: '600',
      },
    });
    admin = new AdminClient(t.url);
    worker = await startWorker(t.config, t.clock);
  }, 120_000);

  afterAll(async () => {
    for (const c of open) await c.close().catch(() => undefined);
    await worker?.close();
    await t?.close();
    await site?.close();
    await slowSite?.close();
  });

  it('start_site_audit returns the 202 acceptance (job_id, queued, poll); get_job reads the same job until complete', async () => {
    const acc = await admin.account('pro', POLLING_OVERRIDES);
    const c = await connectAs(acc);
    const started = ok(
      await c.call('start_site_audit', { url: `${site.origin}/`, max_pages: 10, depth: 2 }),
    );
    expect(started.data).toEqual({
      job_id: expect.stringMatching(JOB_ID),
      status: 'queued',
      poll: expect.stringContaining(`/api/v1/jobs/${String(started.data.job_id)}`),
    });
    expect(started.meta.max_pages).toBe(10);
    const jobId = String(started.data.job_id);
    // The connector sent an Idempotency-Key of its own: the answer was kept for its retries.
    const kept = (await t.db.query(
      'SELECT route, state, status FROM idempotency_keys WHERE account_id = $1',
      [acc.id],
    )) as unknown[];
    expect(kept).toEqual([{ route: 'POST /api/v1/site-audit', state: 'complete', status: 202 }]);

    const first = ok(await c.call('get_job', { job_id: jobId }));
    expect(first.data).toMatchObject({ job_id: jobId, endpoint: 'site-audit' });
    expect(['queued', 'running', 'complete']).toContain(first.data.status);

    // get_job with wait_seconds long-polls: it answers once the job is complete
    const waited = ok(await c.call('get_job', { job_id: jobId, wait_seconds: 60 }));
    expect(waited.data.status).toBe('complete');
    const { final } = await waitForJob(t.url, acc.key, jobId, { intervalMs: 100 });
    const done = ok(await c.call('get_job', { job_id: jobId }));
    expect(done.data).toEqual(final);
    expect(waited.data).toEqual(final);
  });

  it('run_site_audit waits with a long-poll and returns the complete job record: about three calls in all', async () => {
    const acc = await admin.account('pro', POLLING_OVERRIDES);
    const c = await connectAs(acc);
    const before = await usedCalls(acc);
    const progress: number[] = [];
    const res = (await c.client.callTool(
      { name: 'run_site_audit', arguments: { url: `${site.origin}/`, max_pages: 10 } },
      CallToolResultSchema,
      { onprogress: (p) => progress.push(p.progress), timeout: 60_000 },
    )) as ToolResult;
    const body = ok(res);
    expect(body).toMatchObject({ finished: true, job_id: expect.stringMatching(JOB_ID) });
    expect(body.data).toMatchObject({ status: 'complete', progress: 100, endpoint: 'site-audit' });
    expect(body.data.data).toMatchObject({
      pages_crawled: expect.any(Number),
      report_url: expect.any(String),
    });
    expect(allText(res)).toContain('is complete');
    const rest = await t
      .http()
      .get(`/api/v1/jobs/${String(body.job_id)}`)
      .set(bearer(acc.key));
    expect(body.data).toEqual(rest.body.data);
    // one call for the start plus one per long-poll (plus the REST read above); a short crawl
    // ends within the first wait, so the audit cost the assistant 2 calls (issue 14: about 3)
    expect(body.polls as number).toBeGreaterThanOrEqual(1);
    expect(body.polls as number).toBeLessThanOrEqual(2);
    expect(await usedCalls(acc)).toBe(before + 1 + (body.polls as number) + 1);
    // progress at once on acceptance (its message names the job), then one per poll (and a
    // beat every ~10 s while a long-poll waits), strictly increasing, sent before the result,
    // the last at 100. Counted on the wire: the SDK client runs notification handlers a
    // microtask late, so one that arrives in the same read as the result is dropped by the
    // client, not by the server.
    const notes = c.received.flatMap((m) =>
      'method' in m && m.method === 'notifications/progress'
        ? [m.params as { progress: number; message: string }]
        : [],
    );
    const wire = notes.map((n) => Number(n.progress));
    expect(notes[0]).toMatchObject({ progress: 0 });
    expect(notes[0].message).toContain(String(body.job_id));
    for (let i = 1; i < wire.length; i++) expect(wire[i]).toBeGreaterThan(wire[i - 1]);
    const resultAt = c.received.findIndex(
      (m) => 'result' in m && JSON.stringify(m.result).includes(String(body.job_id)),
    );
    const lastProgressAt = c.received.findLastIndex(
      (m) => 'method' in m && m.method === 'notifications/progress',
    );
    expect(wire.length).toBeGreaterThanOrEqual((body.polls as number) + 1);
    expect(wire[wire.length - 1]).toBe(100);
    expect(lastProgressAt).toBeLessThan(resultAt);
    expect(wire).toEqual(expect.arrayContaining(progress));
    expect(progress.length).toBeGreaterThanOrEqual(wire.length - 1);
  });

  it('run_site_audit stops at max_wait_seconds with the latest record and a "still running" note', async () => {
    const acc = await admin.account('pro', POLLING_OVERRIDES);
    const c = await connectAs(acc);
    const startedAt = Date.now();
    const res = await c.call('run_site_audit', { url: `${slowSite.origin}/`, max_wait_seconds: 1 });
    const elapsed = Date.now() - startedAt;
    const body = ok(res);
    expect(body.finished).toBe(false);
    expect(['queued', 'running']).toContain(body.data.status);
    expect(String(body.note)).toContain('still running');
    expect(allText(res)).toContain(String(body.job_id));
    // bounded: a 1 s budget is one long-poll with wait=1, and the call returned promptly
    expect(body.polls as number).toBe(1);
    expect(elapsed).toBeLessThan(10_000);

    const zero = ok(
      await c.call('run_site_audit', { url: `${slowSite.origin}/`, max_wait_seconds: 0 }),
    );
    expect(zero).toMatchObject({
      finished: false,
      polls: 0,
      data: { status: 'queued', job_id: expect.stringMatching(JOB_ID) },
    });

    // let both crawls end before the worker shuts down
    for (const id of [body.job_id, zero.job_id])
      await waitForJob(t.url, acc.key, String(id), { timeoutMs: 50_000, intervalMs: 250 });
  }, 90_000);

  it("get_job: another account's job and an unknown id are NOT_FOUND tool errors", async () => {
    const owner = await admin.account('pro', POLLING_OVERRIDES);
    const other = await admin.account('pro', POLLING_OVERRIDES);
    const started = await t
      .http()
      .post('/api/v1/site-audit')
      .set(bearer(owner.key))
      .send({ url: `${site.origin}/`, max_pages: 3 });
    expect(started.status).toBe(202);
    const c = await connectAs(other);
    for (const id of [started.body.job_id as string, 'job_doesnotexist000000000']) {
      const res = await c.call('get_job', { job_id: id });
      expect(res.isError).toBe(true);
      expect(res.structuredContent?.error).toMatchObject({ code: 'NOT_FOUND', http_status: 404 });
    }
    await waitForJob(t.url, owner.key, started.body.job_id, { intervalMs: 100 });
  });

  it('run_site_audit with the crawl quota used up is a QUOTA_EXCEEDED tool error and never polls', async () => {
    const acc = await admin.account('pro', {
      ...POLLING_OVERRIDES,
      site_audit_crawls_per_month: 0,
    });
    const c = await connectAs(acc);
    const before = await usedCalls(acc);
    const res = await c.call('run_site_audit', { url: `${site.origin}/` });
    expect(res.isError).toBe(true);
    expect(res.structuredContent?.error).toMatchObject({
      code: 'QUOTA_EXCEEDED',
      http_status: 429,
    });
    expect(await usedCalls(acc)).toBe(before + 1);
  });
});
