import type { TestingModule } from '@nestjs/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { JobLongPollService } from '../../apps/api/src/site-audit/job-long-poll.service';
import { AdminClient, TestAccount, bearer } from '../helpers/fixtures';
import { createTestApp, TestApp } from '../helpers/test-app';
import { FixtureSite, startFixtureSite } from '../site-audit/fixture-site';
import { POLLING_OVERRIDES, startWorker, waitForJob } from '../site-audit/site-audit-helpers';
import { Connector, ToolResult, buildConnector, connect, toolOk, usedCalls } from './mcp-harness';

/**
 * Issue 36 item 2: hosted and local audits that outlive the client's request timeout. The
 * first progress notification comes at once with the job id, then a heartbeat; a client with a
 * short timeout and resetTimeoutOnProgress survives a long audit; a client that times out or
 * cancels stops the server's waiting (no long-poll left, no further metered calls), and
 * get_job / list_jobs find the audit again. Both connectors, driven by the SDK client.
 */
const JOB_ID = /job_[0-9A-Za-z]{22}/;

describe('run_site_audit progress, timeouts and cancellation; list_jobs (SDK client)', () => {
  let t: TestApp;
  let admin: AdminClient;
  let worker: TestingModule;
  let slowSite: FixtureSite;
  const locals: Connector[] = [];
  const remotes: Client[] = [];

  const local = async (acc: TestAccount, env: Record<string, string> = {}) => {
    const c = await connect({
      SEO_API_KEY: acc.key,
      SEO_API_BASE_URL: t.url,
      SEO_MCP_POLL_INTERVAL_MS: '200',
      SEO_MCP_PROGRESS_INTERVAL_MS: '1000',
      ...env,
    });
    locals.push(c);
    return c;
  };
  const hosted = async (acc: TestAccount) => {
    const client = new Client({ name: 'hosted-progress-e2e', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), {
        requestInit: { headers: bearer(acc.key) },
      }),
    );
    remotes.push(client);
    return client;
  };
  const waiting = () => t.app.get(JobLongPollService).waiting;
  const until = async (what: () => boolean | Promise<boolean>, timeoutMs = 10_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!(await what())) {
      if (Date.now() > deadline) throw new Error('condition not reached in time');
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const run = (client: Client, acc: TestAccount, options: Record<string, unknown>) =>
    client.callTool(
      { name: 'run_site_audit', arguments: { url: `${slowSite.origin}/`, max_pages: 10 } },
      CallToolResultSchema,
      options,
    ) as Promise<ToolResult>;

  beforeAll(async () => {
    buildConnector();
    // about 10 s of crawling: a home page and 8 articles, 3.5 s each, 4 at a time
    slowSite = await startFixtureSite({ articles: 8, delayMs: 3500 });
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
    for (const c of locals) await c.close().catch(() => undefined);
    for (const c of remotes) await c.close().catch(() => undefined);
    await worker?.close();
    await t?.close();
    await slowSite?.close();
  });

  it('local: a client with a 3 s timeout and resetTimeoutOnProgress survives a ~10 s audit; the first progress (job id) comes at once, then a beat each second', async () => {
    const acc = await admin.account('pro', POLLING_OVERRIDES);
    const c = await local(acc);
    const seen: Array<Progress & { at: number }> = [];
    const startedAt = Date.now();
    const res = await run(c.client, acc, {
      timeout: 3_000,
      resetTimeoutOnProgress: true,
      onprogress: (p: Progress) => seen.push({ ...p, at: Date.now() - startedAt }),
    });
    const elapsed = Date.now() - startedAt;
    const body = toolOk(res);
    expect(elapsed).toBeGreaterThan(3_000); // longer than the client's timeout
    expect(body).toMatchObject({ finished: true, job_id: expect.stringMatching(JOB_ID) });
    expect(body.data).toMatchObject({ status: 'complete', progress: 100 });
    // the first notification: within a few seconds, naming the job
    expect(seen[0].at).toBeLessThan(3_000);
    expect(seen[0].message).toContain(String(body.job_id));
    // a beat about every second while waiting, each strictly higher, none after the result
    expect(seen.length).toBeGreaterThanOrEqual(Math.floor(elapsed / 1000) - 2);
    for (let i = 1; i < seen.length; i++) {
      expect(seen[i].progress).toBeGreaterThan(seen[i - 1].progress);
      expect(seen[i].at - seen[i - 1].at).toBeLessThan(2_500);
    }
    // waiting was long-polls, not a poll per beat: the start plus a call per ~60 s wait
    expect(body.polls as number).toBeLessThanOrEqual(2);
    expect(seen.length).toBeGreaterThan((body.polls as number) + 2);
  }, 90_000);

  it('local: a client that times out (no reset) stops the waiting at once; get_job and list_jobs find the audit', async () => {
    const acc = await admin.account('pro', POLLING_OVERRIDES);
    const c = await local(acc);
    const seen: Progress[] = [];
    await expect(
      run(c.client, acc, { timeout: 3_000, onprogress: (p: Progress) => seen.push(p) }),
    ).rejects.toMatchObject({ code: ErrorCode.RequestTimeout });
    const jobId = String(seen[0]?.message?.match(JOB_ID)?.[0]);
    expect(jobId).toMatch(JOB_ID);
    // the connector dropped its long-poll: the API holds no wait, no call is made any more
    await until(() => waiting() === 0, 5_000);
    const after = await usedCalls(admin, acc);
    await sleep(3_000);
    expect(await usedCalls(admin, acc)).toBe(after);
    expect(waiting()).toBe(0);

    const listed = toolOk(await c.call('list_jobs', { limit: 5 }));
    const jobs = listed.data.jobs as Array<{ job_id: string; status: string }>;
    expect(jobs.map((j) => j.job_id)).toEqual([jobId]);
    expect(listed.meta).toMatchObject({ total: 1, limit: 5, offset: 0 });
    const { final } = await waitForJob(t.url, acc.key, jobId, { timeoutMs: 60_000 });
    expect(final.status).toBe('complete'); // the crawl itself went on
    const got = toolOk(await c.call('get_job', { job_id: jobId }));
    expect(got.data).toEqual(final);
    const done = toolOk(await c.call('list_jobs', { status: 'complete' }));
    expect(done.data.jobs).toEqual([final]);
  }, 90_000);

  it('local: without a progress token the wait is bounded by the configured maximum, even when more is asked', async () => {
    const acc = await admin.account('pro', POLLING_OVERRIDES);
    const c = await local(acc, { SEO_MCP_MAX_WAIT_MS: '2000' });
    const startedAt = Date.now();
    const res = await c.call('run_site_audit', {
      url: `${slowSite.origin}/`,
      max_wait_seconds: 600,
    });
    expect(Date.now() - startedAt).toBeLessThan(8_000);
    const body = toolOk(res);
    expect(body).toMatchObject({ finished: false, job_id: expect.stringMatching(JOB_ID) });
    expect(String(body.note)).toContain('still running');
    // no progress token, no notifications
    expect(c.received.some((m) => 'method' in m && m.method === 'notifications/progress')).toBe(
      false,
    );
    await waitForJob(t.url, acc.key, String(body.job_id), { timeoutMs: 60_000 });
  }, 90_000);

  it('hosted: progress with the job id at once; notifications/cancelled (client timeout) stops the server’s wait; list_jobs finds the audit', async () => {
    const acc = await admin.account('pro', POLLING_OVERRIDES);
    const client = await hosted(acc);
    const seen: Array<Progress & { at: number }> = [];
    const startedAt = Date.now();
    const call = run(client, acc, {
      timeout: 4_000,
      onprogress: (p: Progress) => seen.push({ ...p, at: Date.now() - startedAt }),
    });
    // the server holds one long-poll for the call
    await until(() => waiting() === 1, 4_000);
    const before = await usedCalls(admin, acc);
    const error = await call.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(ErrorCode.RequestTimeout);
    expect(seen[0].at).toBeLessThan(3_000);
    const jobId = String(seen[0].message?.match(JOB_ID)?.[0]);
    expect(jobId).toMatch(JOB_ID);
    // the cancellation (a separate POST on a stateless endpoint) reached the call: its wait ends
    await until(() => waiting() === 0, 3_000);
    await sleep(3_000);
    expect(waiting()).toBe(0);
    expect(await usedCalls(admin, acc)).toBe(before);

    const listed = toolOk(
      (await client.callTool({ name: 'list_jobs', arguments: {} })) as ToolResult,
    );
    expect((listed.data.jobs as Array<{ job_id: string }>).map((j) => j.job_id)).toEqual([jobId]);
    await waitForJob(t.url, acc.key, jobId, { timeoutMs: 60_000 });
    // once the job is terminal (no moving progress), the tool's answer is the REST answer
    const again = toolOk(
      (await client.callTool({ name: 'list_jobs', arguments: {} })) as ToolResult,
    );
    const rest = await t.http().get('/api/v1/jobs').set(bearer(acc.key));
    expect(again.data).toEqual(rest.body.data);
    expect(again.meta).toMatchObject({ total: 1, limit: 20, offset: 0 });
  }, 90_000);

  it('hosted: a client that disconnects mid-wait (closes its transport) ends the server’s wait too', async () => {
    const acc = await admin.account('pro', POLLING_OVERRIDES);
    const client = await hosted(acc);
    const seen: Progress[] = [];
    const call = run(client, acc, { timeout: 60_000, onprogress: (p: Progress) => seen.push(p) });
    await until(() => waiting() === 1 && seen.length > 0, 4_000);
    const jobId = String(seen[0].message?.match(JOB_ID)?.[0]);
    const before = await usedCalls(admin, acc);
    await client.close();
    await call.catch(() => undefined);
    await until(() => waiting() === 0, 3_000);
    await sleep(2_000);
    expect(waiting()).toBe(0);
    expect(await usedCalls(admin, acc)).toBe(before);
    const { final } = await waitForJob(t.url, acc.key, jobId, { timeoutMs: 60_000 });
    expect(final.status).toBe('complete');
  }, 90_000);

  it('list_jobs refuses bad arguments before any call (schema), like the REST 422', async () => {
    const acc = await admin.account('pro', POLLING_OVERRIDES);
    const c = await local(acc);
    const before = await usedCalls(admin, acc);
    for (const args of [
      { status: 'bogus' },
      { limit: 0 },
      { limit: 101 },
      { offset: -1 },
      { limit: 'abc' },
    ]) {
      const res = await c.call('list_jobs', args);
      expect(res.isError).toBe(true);
      expect(res.structuredContent?.error?.code).toBe('VALIDATION_ERROR');
    }
    expect(await usedCalls(admin, acc)).toBe(before);
  });
});
