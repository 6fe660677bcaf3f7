import { getQueueToken } from '@nestjs/bullmq';
import type { TestingModule } from '@nestjs/testing';
import type { Queue } from 'bullmq';
import request from 'supertest';
import { addDays } from '@app/core';
import { AuditSweeperService, SITE_AUDIT_QUEUE } from '@app/site-audit';
import { SiteAuditProcessor } from '../../apps/worker/src/site-audit/site-audit.processor';
import { AdminClient, bearer } from '../helpers/fixtures';
import { createTestApp, TestApp } from '../helpers/test-app';
import { FixtureSite, HOSTILE_TITLE, closedPort, startFixtureSite } from './fixture-site';
import { POLLING_OVERRIDES, startWorker, waitForJob } from './site-audit-helpers';

const RECORD_TS = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const ISO_TS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+00:00$/;
const JOB_ID = /^job_[0-9A-Za-z]{22}$/;

describe('Site audits: POST /site-audit, GET /jobs/{job_id}, worker, report page', () => {
  let t: TestApp;
  let admin: AdminClient;
  let worker: TestingModule;
  let site: FixtureSite;

  const post = (key: string, body: unknown) =>
    request(t.url)
      .post('/api/v1/site-audit')
      .set(bearer(key))
      .send(body as object);
  const usage = async (accountId: number) =>
    (await admin.get(`/accounts/${accountId}`)).body.data.usage;

  beforeAll(async () => {
    site = await startFixtureSite({ articles: 12 });
    t = await createTestApp({
      env: {
        AUDIT_ALLOW_PRIVATE_NETWORKS: 'true',
        AUDIT_POLITENESS_DELAY_MS: '150',
        AUDIT_JOB_DEADLINE_SECONDS: '600',
      },
    });
    admin = new AdminClient(t.url);
    worker = await startWorker(t.config, t.clock);
  });

  afterAll(async () => {
    await worker?.close();
    await t?.close();
    await site?.close();
  });

  describe('the normal flow', () => {
    let acc: Awaited<ReturnType<AdminClient['account']>>;
    let final: Record<string, unknown>;

    beforeAll(async () => {
      acc = await admin.account('pro', POLLING_OVERRIDES);
    });

    it('202 with top-level success, job_id, status "queued", poll (absolute job URL) and meta', async () => {
      const res = await post(acc.key, { url: `${site.origin}/`, max_pages: 20, depth: 3 });
      expect(res.status).toBe(202);
      expect(res.body).toEqual({
        success: true,
        job_id: expect.stringMatching(JOB_ID),
        status: 'queued',
        poll: `${t.config.publicBaseUrl}/api/v1/jobs/${res.body.job_id}`,
        meta: {
          timestamp: expect.stringMatching(ISO_TS),
          request_id: expect.any(String),
          max_pages: 20,
        },
      });
      expect(res.body).not.toHaveProperty('data');
      expect(res.headers.location).toBe(res.body.poll);

      const polled = await waitForJob(t.url, acc.key, res.body.job_id, { intervalMs: 50 });
      final = polled.final;
      // progress never goes down, and advancement was reported while running
      const progress = polled.seen.map((s) => s.progress);
      for (let i = 1; i < progress.length; i++)
        expect(progress[i]).toBeGreaterThanOrEqual(progress[i - 1]);
      expect(
        polled.seen.some((s) => s.status === 'running' && s.progress > 0 && s.progress < 100),
      ).toBe(true);
      for (const s of polled.seen) expect(['queued', 'running', 'complete']).toContain(s.status);
    });

    it('the complete job record: spec fields, record timestamps, data with scores, issue counts and report_url', () => {
      expect(final).toEqual({
        job_id: expect.stringMatching(JOB_ID),
        endpoint: 'site-audit',
        status: 'complete',
        progress: 100,
        created_at: expect.stringMatching(RECORD_TS),
        updated_at: expect.stringMatching(RECORD_TS),
        completed_at: expect.stringMatching(RECORD_TS),
        data: {
          audit_id: expect.stringMatching(/^aud_[0-9A-Za-z]{22}$/),
          domain: '127.0.0.1',
          pages_crawled: expect.any(Number),
          total_score: expect.any(Number),
          geo_score: expect.any(Number),
          issues: {
            critical: expect.any(Number),
            warning: expect.any(Number),
            total: expect.any(Number),
          },
          report_url: `${t.config.publicBaseUrl}/reports/audits/${(final.data as { audit_id: string }).audit_id}`,
        },
      });
      const data = final.data as {
        pages_crawled: number;
        issues: { critical: number; warning: number; total: number };
      };
      expect(data.pages_crawled).toBeGreaterThanOrEqual(14); // home, 12 articles, the hostile page (+ the 404)
      expect(data.pages_crawled).toBeLessThanOrEqual(20);
      expect(data.issues.total).toBeGreaterThanOrEqual(data.issues.critical + data.issues.warning);
      expect(data.issues.total).toBeGreaterThan(0); // the hostile page has no H1, one link is broken
    });

    it('the page budget is reconciled to the pages actually crawled; the crawl counts once', async () => {
      const u = await usage(acc.id);
      expect(u.site_audit_rolling_page_budget).toBe(
        (final.data as { pages_crawled: number }).pages_crawled,
      );
      expect(u.site_audit_crawls_per_month).toBe(1);
    });

    it('the report page: 200 HTML readable on a phone, scores, issues by rule, per-page findings, all escaped', async () => {
      const reportPath = new URL((final.data as { report_url: string }).report_url).pathname;
      const res = await request(t.url).get(reportPath); // public: no API key
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['content-security-policy']).toContain("default-src 'none'");
      const html = res.text;
      expect(html).toContain(
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
      );
      expect(html).toContain('Total score');
      expect(html).toContain('GEO score');
      expect(html).toContain('Issues by rule');
      expect(html).toContain(`${site.origin}/articles/12`);
      // the hostile title is shown as text, never as markup
      expect(html).not.toContain('<script');
      expect(html).toContain(
        '&lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt; Hostile &amp; &quot;quoted&quot;',
      );
      expect(HOSTILE_TITLE).toContain('<script>');
      // Readable rule names with a fix hint, not raw rule ids; a 404 page is not indexable.
      expect(html).toContain('How to fix:');
      expect(html).not.toMatch(/>\s*missing_lang\b/);
    });

    it('the page list downloads: JSON and CSV with the same pages, as attachments', async () => {
      const reportPath = new URL((final.data as { report_url: string }).report_url).pathname;
      const json = await request(t.url).get(`${reportPath}/pages.json`);
      expect(json.status).toBe(200);
      expect(json.headers['content-type']).toMatch(/^application\/json/);
      expect(json.headers['content-disposition']).toMatch(/^attachment; filename="site-audit-aud_/);
      const pages = JSON.parse(json.text).pages as Array<{
        url: string;
        status: number;
        indexable: boolean;
      }>;
      expect(pages.length).toBe((final.data as { pages_crawled: number }).pages_crawled);
      for (const p of pages) {
        if (p.status >= 400) expect(p.indexable).toBe(false);
      }
      const csv = await request(t.url).get(`${reportPath}/pages.csv`);
      expect(csv.status).toBe(200);
      expect(csv.headers['content-type']).toMatch(/^text\/csv/);
      expect(csv.text.startsWith('\uFEFF')).toBe(true);
      const lines = csv.text.slice(1).trim().split('\r\n');
      expect(lines[0].startsWith('url,final_url,status,')).toBe(true);
      expect(lines.length).toBeGreaterThanOrEqual(pages.length + 1);
      for (const bad of ['pages.xml', 'pages.']) {
        expect((await request(t.url).get(`${reportPath}/${bad}`)).status).toBe(404);
      }
      expect(
        (await request(t.url).get('/reports/audits/aud_AAAAAAAAAAAAAAAAAAAAAA/pages.csv')).status,
      ).toBe(404);
    });

    it('an unknown or malformed report id is a 404 HTML page', async () => {
      for (const id of ['aud_AAAAAAAAAAAAAAAAAAAAAA', 'nope', "aud_'%3Cscript%3E"]) {
        const res = await request(t.url).get(`/reports/audits/${id}`);
        expect(res.status).toBe(404);
        expect(res.headers['content-type']).toMatch(/^text\/html/);
        expect(res.text).not.toContain('<script');
      }
    });

    it("another account's job is 404 NOT_FOUND, like an unknown or malformed id", async () => {
      const other = await admin.account('agency', POLLING_OVERRIDES);
      for (const id of [
        final.job_id,
        'job_AAAAAAAAAAAAAAAAAAAAAA',
        'job_x',
        '1',
        'job_AAAAAAAAAAAAAAAAAAAAAA%27--',
      ]) {
        const res = await request(t.url).get(`/api/v1/jobs/${id}`).set(bearer(other.key));
        expect(res.status).toBe(404);
        expect(res.body.success).toBe(false);
        expect(res.body.error.code).toBe('NOT_FOUND');
      }
      const own = await request(t.url).get(`/api/v1/jobs/${final.job_id}`).set(bearer(acc.key));
      expect(own.status).toBe(200);
    });

    it('GET /jobs needs an API key (401)', async () => {
      const res = await request(t.url).get(`/api/v1/jobs/${final.job_id}`);
      expect(res.status).toBe(401);
    });
  });

  describe('failures', () => {
    it("an unreachable host ends failed with error {code, message}; the crawl counts (the site's fault), no pages", async () => {
      const acc = await admin.account('pro', POLLING_OVERRIDES);
      const port = await closedPort();
      const res = await post(acc.key, { url: `http://127.0.0.1:${port}/` });
      expect(res.status).toBe(202);
      const { final, seen } = await waitForJob(t.url, acc.key, res.body.job_id);
      expect(final).toEqual({
        job_id: res.body.job_id,
        endpoint: 'site-audit',
        status: 'failed',
        progress: 0,
        created_at: expect.stringMatching(RECORD_TS),
        updated_at: expect.stringMatching(RECORD_TS),
        completed_at: expect.stringMatching(RECORD_TS),
        error: { code: 'UNREACHABLE', message: expect.stringContaining('could not be reached') },
      });
      expect(
        seen.filter((s) => s.status !== 'failed').every((s) => s.body.completed_at === null),
      ).toBe(true);
      const u = await usage(acc.id);
      expect(u.site_audit_crawls_per_month).toBe(1);
      expect(u.site_audit_rolling_page_budget).toBe(0);
    });

    it('the sweeper fails a job past its deadline (DEADLINE_EXCEEDED) and refunds its crawl and pages', async () => {
      const acc = await admin.account('pro', POLLING_OVERRIDES);
      const processor = worker.get(SiteAuditProcessor);
      await processor.worker.pause();
      try {
        const res = await post(acc.key, { url: `${site.origin}/`, max_pages: 7 });
        expect(res.status).toBe(202);
        expect((await usage(acc.id)).site_audit_rolling_page_budget).toBe(7);
        expect((await usage(acc.id)).site_audit_crawls_per_month).toBe(1);

        // before the deadline nothing happens
        t.clock.advance(599_000);
        await worker.get(AuditSweeperService).runOnce();
        let job = await request(t.url).get(`/api/v1/jobs/${res.body.job_id}`).set(bearer(acc.key));
        expect(job.body.data.status).toBe('queued');

        t.clock.advance(2_000); // past AUDIT_JOB_DEADLINE_SECONDS=600
        const swept = await worker.get(AuditSweeperService).runOnce();
        expect(swept.deadline).toBeGreaterThanOrEqual(1);
        job = await request(t.url).get(`/api/v1/jobs/${res.body.job_id}`).set(bearer(acc.key));
        expect(job.body.data).toMatchObject({
          status: 'failed',
          error: { code: 'DEADLINE_EXCEEDED' },
        });
        expect(job.body.data.completed_at).toMatch(RECORD_TS);
        const u = await usage(acc.id);
        expect(u.site_audit_crawls_per_month).toBe(0);
        expect(u.site_audit_rolling_page_budget).toBe(0);

        // a second sweep refunds nothing more (each job ends once)
        await worker.get(AuditSweeperService).runOnce();
        expect((await usage(acc.id)).site_audit_crawls_per_month).toBe(0);
      } finally {
        await processor.worker.resume();
      }
    });

    it('the sweeper fails an open job whose queue entry is gone (LOST) once it is past the grace time, with a refund', async () => {
      const acc = await admin.account('pro', POLLING_OVERRIDES);
      const processor = worker.get(SiteAuditProcessor);
      await processor.worker.pause();
      try {
        const res = await post(acc.key, { url: `${site.origin}/`, max_pages: 4 });
        expect(res.status).toBe(202);
        const queue = t.app.get<Queue>(getQueueToken(SITE_AUDIT_QUEUE));
        expect(await queue.getJobState(res.body.job_id)).toBe('waiting');
        await queue.remove(res.body.job_id); // e.g. Redis lost its data
        await worker.get(AuditSweeperService).runOnce();
        let job = await request(t.url).get(`/api/v1/jobs/${res.body.job_id}`).set(bearer(acc.key));
        expect(job.body.data.status).toBe('queued'); // too young to judge

        t.clock.advance(91_000); // past the orphan grace (3 × the 30 s stalled interval), before the deadline
        const swept = await worker.get(AuditSweeperService).runOnce();
        expect(swept.orphaned).toBe(1);
        job = await request(t.url).get(`/api/v1/jobs/${res.body.job_id}`).set(bearer(acc.key));
        expect(job.body.data).toMatchObject({ status: 'failed', error: { code: 'LOST' } });
        const u = await usage(acc.id);
        expect(u.site_audit_crawls_per_month).toBe(0);
        expect(u.site_audit_rolling_page_budget).toBe(0);
      } finally {
        await processor.worker.resume();
      }
    });
  });

  describe('validation: 422 VALIDATION_ERROR, nothing charged', () => {
    let key: string;
    let id: number;
    beforeAll(async () => {
      ({ key, id } = await admin.account('pro', POLLING_OVERRIDES));
    });

    it.each([
      ['missing url', {}, 'url'],
      ['url not a string', { url: 42 }, 'url'],
      ['not a URL', { url: 'not a url' }, 'url'],
      ['relative URL', { url: '/about' }, 'url'],
      ['ftp: scheme', { url: 'ftp://example.com/' }, 'url'],
      ['javascript: scheme', { url: 'javascript:alert(1)' }, 'url'],
      ['credentials in the URL', { url: 'http://user:secret@example.com/' }, 'url'],
      ['URL over 2048 characters', { url: `http://example.com/${'a'.repeat(2040)}` }, 'url'],
      ['depth 0', { url: 'http://example.com/', depth: 0 }, 'depth'],
      ['depth 6', { url: 'http://example.com/', depth: 6 }, 'depth'],
      ['depth "3" (a string)', { url: 'http://example.com/', depth: '3' }, 'depth'],
      ['depth 1.5', { url: 'http://example.com/', depth: 1.5 }, 'depth'],
      ['max_pages 0', { url: 'http://example.com/', max_pages: 0 }, 'max_pages'],
      ['max_pages -1', { url: 'http://example.com/', max_pages: -1 }, 'max_pages'],
      ['max_pages 1.5', { url: 'http://example.com/', max_pages: 1.5 }, 'max_pages'],
      ['max_pages "10"', { url: 'http://example.com/', max_pages: '10' }, 'max_pages'],
    ])('%s', async (_name, body, field) => {
      const res = await post(key, body);
      expect(res.status).toBe(422);
      expect(res.body.success).toBe(false);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    });

    it('a body that is not a JSON object is refused', async () => {
      const res = await request(t.url)
        .post('/api/v1/site-audit')
        .set(bearer(key))
        .set('Content-Type', 'application/json')
        .send('["http://example.com/"]');
      expect(res.status).toBe(422);
    });

    it('nothing was reserved by refused requests', async () => {
      const u = await usage(id);
      expect(u.site_audit_crawls_per_month).toBe(0);
      expect(u.site_audit_rolling_page_budget).toBe(0);
    });
  });

  describe('private, loopback, link-local, reserved and unresolvable hosts (AUDIT_ALLOW_PRIVATE_NETWORKS=false)', () => {
    let strict: TestApp;
    let key: string;
    let id: number;
    beforeAll(async () => {
      strict = await createTestApp({ env: { AUDIT_ALLOW_PRIVATE_NETWORKS: 'false' } });
      ({ key, id } = await new AdminClient(strict.url).account('pro', POLLING_OVERRIDES));
    });
    afterAll(() => strict?.close());

    it.each([
      'http://127.0.0.1/',
      'http://localhost:8080/',
      'http://10.1.2.3/',
      'http://172.16.0.1/',
      'http://192.168.1.1/',
      'http://169.254.169.254/latest/meta-data/',
      'http://100.64.0.1/',
      'http://0.0.0.0/',
      'http://[::1]/',
      'http://[fe80::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://2130706433/',
      'http://0x7f.1/',
      'http://198.18.0.1/',
      'http://240.0.0.1/',
      'http://no-such-host.invalid/',
    ])('%s → 422 on url', async (url) => {
      const res = await request(strict.url)
        .post('/api/v1/site-audit')
        .set(bearer(key))
        .send({ url });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.details[0].field).toBe('url');
    });

    it('nothing was reserved', async () => {
      const u = (await new AdminClient(strict.url).get(`/accounts/${id}`)).body.data.usage;
      expect(u.site_audit_crawls_per_month).toBe(0);
      expect(u.site_audit_rolling_page_budget).toBe(0);
    });
  });

  describe('limits', () => {
    it("max_pages is capped by the plan's per-crawl limit (meta.max_pages shows the value applied)", async () => {
      const acc = await admin.account('pro', {
        ...POLLING_OVERRIDES,
        site_audit_pages_per_crawl: 5,
      });
      const capped = await post(acc.key, { url: `${site.origin}/`, max_pages: 50 });
      expect(capped.status).toBe(202);
      expect(capped.body.meta.max_pages).toBe(5);
      const byDefault = await post(acc.key, { url: `${site.origin}/` }); // default 100, capped to 5
      expect(byDefault.body.meta.max_pages).toBe(5);
      const smaller = await post(acc.key, { url: `${site.origin}/`, max_pages: 2 });
      expect(smaller.body.meta.max_pages).toBe(2);
      const done = await waitForJob(t.url, acc.key, capped.body.job_id);
      expect((done.final.data as { pages_crawled: number }).pages_crawled).toBeLessThanOrEqual(5);
      await waitForJob(t.url, acc.key, byDefault.body.job_id);
      await waitForJob(t.url, acc.key, smaller.body.job_id);
    });

    it('429 QUOTA_EXCEEDED when the monthly crawl count is used up (meta.quota, resets_at = next month)', async () => {
      const acc = await admin.account('pro', {
        ...POLLING_OVERRIDES,
        site_audit_crawls_per_month: 2,
      });
      const accepted = [
        await post(acc.key, { url: `${site.origin}/`, max_pages: 1 }),
        await post(acc.key, { url: `${site.origin}/`, max_pages: 1 }),
      ];
      expect(accepted.map((r) => r.status)).toEqual([202, 202]);
      const res = await post(acc.key, { url: `${site.origin}/`, max_pages: 1 });
      expect(res.status).toBe(429);
      expect(res.body.success).toBe(false);
      expect(res.body.error.code).toBe('QUOTA_EXCEEDED');
      const now = t.clock.now();
      const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1))
        .toISOString()
        .slice(0, 10);
      expect(res.body.meta).toMatchObject({
        quota: 'site_audit_crawls_per_month',
        limit: 2,
        resets_at: next,
      });
      expect((await usage(acc.id)).site_audit_crawls_per_month).toBe(2);
      for (const r of accepted) await waitForJob(t.url, acc.key, r.body.job_id);
    });

    it('the rolling 30-day page budget: caps max_pages, then 429 with resets_at, and frees up after 30 days', async () => {
      const acc = await admin.account('pro', {
        ...POLLING_OVERRIDES,
        site_audit_rolling_page_budget: 5,
      });
      const first = await post(acc.key, { url: `${site.origin}/`, max_pages: 3 });
      expect(first.status).toBe(202);
      expect(first.body.meta.max_pages).toBe(3);
      const firstAt = t.clock.now();
      await waitForJob(t.url, acc.key, first.body.job_id);
      t.clock.advance(3_600_000);
      const second = await post(acc.key, { url: `${site.origin}/`, max_pages: 10 });
      expect(second.status).toBe(202);
      expect(second.body.meta.max_pages).toBe(2); // what is left of the budget
      await waitForJob(t.url, acc.key, second.body.job_id);
      expect((await usage(acc.id)).site_audit_rolling_page_budget).toBe(5);

      const refused = await post(acc.key, { url: `${site.origin}/` });
      expect(refused.status).toBe(429);
      expect(refused.body.error.code).toBe('QUOTA_EXCEEDED');
      expect(refused.body.meta).toMatchObject({
        quota: 'site_audit_rolling_page_budget',
        limit: 5,
        used: 5,
        resets_at: addDays(firstAt, 30).toISOString().slice(0, 19).replace('T', ' '),
      });
      // the refused request did not take a crawl
      expect((await usage(acc.id)).site_audit_crawls_per_month).toBe(2);

      t.clock.set(new Date(addDays(firstAt, 30).getTime() + 1000)); // the first audit's 3 pages leave the window
      const later = await post(acc.key, { url: `${site.origin}/`, max_pages: 10 });
      expect(later.status).toBe(202);
      expect(later.body.meta.max_pages).toBe(3);
      await waitForJob(t.url, acc.key, later.body.job_id);
    });

    it('concurrent requests never overspend the rolling page budget', async () => {
      const acc = await admin.account('pro', {
        ...POLLING_OVERRIDES,
        site_audit_rolling_page_budget: 10,
      });
      const results = await Promise.all(
        Array.from({ length: 6 }, () => post(acc.key, { url: `${site.origin}/`, max_pages: 3 })),
      );
      const granted = results
        .filter((r) => r.status === 202)
        .map((r) => r.body.meta.max_pages as number);
      expect(granted.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(10);
      expect(granted.reduce((a, b) => a + b, 0)).toBe(10); // 3 + 3 + 3 + 1
      expect(results.filter((r) => r.status === 429)).toHaveLength(2);
      for (const r of results.filter((x) => x.status === 202))
        await waitForJob(t.url, acc.key, r.body.job_id);
    });
  });
});
