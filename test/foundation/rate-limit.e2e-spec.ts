import { AdminClient, bearer } from '../helpers/fixtures';
import { ProbeModule } from '../helpers/probe.module';
import { createTestApp, TestApp } from '../helpers/test-app';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('Per-minute limit (spec: Limits: Requests per minute)', () => {
  let t: TestApp;
  let admin: AdminClient;

  // A 2-second window stands in for the minute so the test never sleeps for a minute.
  beforeAll(async () => {
    t = await createTestApp({ imports: [ProbeModule], env: { RATE_LIMIT_WINDOW_SECONDS: '2' } });
    admin = new AdminClient(t.url);
  });
  afterAll(() => t.close());

  it('limit+1 → 429 RATE_LIMITED with meta.retry_after (whole seconds) and meta.limit, plus headers', async () => {
    const acc = await admin.account('pro', {
      requests_per_minute: 3,
      api_calls_per_month: 'unlimited',
    });
    for (let i = 0; i < 3; i++) {
      const ok = await t.http().get('/api/v1/__probe/research').set(bearer(acc.key));
      expect(ok.status).toBe(200);
      expect(ok.headers['x-ratelimit-limit']).toBe('3');
      expect(ok.headers['x-ratelimit-remaining']).toBe(String(2 - i));
      expect(Number(ok.headers['x-ratelimit-reset'])).toBeGreaterThan(0);
    }
    const res = await t.http().get('/api/v1/__probe/research').set(bearer(acc.key));
    expect(res.status).toBe(429);
    expect(res.body.error.code).toBe('RATE_LIMITED');
    expect(res.body.meta.limit).toBe(3);
    expect(Number.isInteger(res.body.meta.retry_after)).toBe(true);
    expect(res.body.meta.retry_after).toBeGreaterThanOrEqual(1);
    expect(res.body.meta.retry_after).toBeLessThanOrEqual(2);
    expect(res.headers['retry-after']).toBe(String(res.body.meta.retry_after));
    expect(res.headers['x-ratelimit-remaining']).toBe('0');
  });

  it('uses the plan values: Pro 20, Agency 60', async () => {
    const pro = await admin.account('pro', { api_calls_per_month: 'unlimited' });
    const agency = await admin.account('agency', { api_calls_per_month: 'unlimited' });
    const p = await t.http().get('/api/v1/__probe/research').set(bearer(pro.key));
    const a = await t.http().get('/api/v1/__probe/research').set(bearer(agency.key));
    expect(p.headers['x-ratelimit-limit']).toBe('20');
    expect(a.headers['x-ratelimit-limit']).toBe('60');
  });

  it('is counted separately per endpoint', async () => {
    const acc = await admin.account('pro', {
      requests_per_minute: 2,
      api_calls_per_month: 'unlimited',
    });
    await t.http().get('/api/v1/__probe/research').set(bearer(acc.key));
    await t.http().get('/api/v1/__probe/research').set(bearer(acc.key));
    expect((await t.http().get('/api/v1/__probe/research').set(bearer(acc.key))).status).toBe(429);
    expect((await t.http().get('/api/v1/__probe/other-research').set(bearer(acc.key))).status).toBe(
      200,
    );
    expect((await t.http().get('/api/v1/usage').set(bearer(acc.key))).status).toBe(200);
  });

  it('refused requests are not counted, and waiting retry_after always clears the limit', async () => {
    const acc = await admin.account('pro', {
      requests_per_minute: 2,
      api_calls_per_month: 'unlimited',
    });
    await t.http().get('/api/v1/__probe/research').set(bearer(acc.key));
    await t.http().get('/api/v1/__probe/research').set(bearer(acc.key));
    let retryAfter = 0;
    for (let i = 0; i < 5; i++) {
      const refused = await t.http().get('/api/v1/__probe/research').set(bearer(acc.key));
      expect(refused.status).toBe(429);
      retryAfter = refused.body.meta.retry_after;
    }
    await sleep(retryAfter * 1000);
    const after = await t.http().get('/api/v1/__probe/research').set(bearer(acc.key));
    expect(after.status).toBe(200);
    expect(after.headers['x-ratelimit-remaining']).toBe('1');
    // Refusals were not counted by the monthly meter either.
    const read = await admin.get(`/accounts/${acc.id}`);
    expect(read.body.data.usage.api_calls_per_month).toBe(3);
  });

  it('is exact under concurrency: 40 parallel requests with a limit of 10 admit exactly 10', async () => {
    const acc = await admin.account('agency', {
      requests_per_minute: 10,
      api_calls_per_month: 'unlimited',
    });
    const results = await Promise.all(
      Array.from({ length: 40 }, () =>
        t.http().get('/api/v1/__probe/your-data').set(bearer(acc.key)),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(10);
    expect(results.filter((r) => r.status === 429)).toHaveLength(30);
  });

  it('is shared by every API instance (counters live in Redis)', async () => {
    const other = await createTestApp({
      imports: [ProbeModule],
      env: { RATE_LIMIT_WINDOW_SECONDS: '2' },
    });
    try {
      const acc = await admin.account('pro', {
        requests_per_minute: 2,
        api_calls_per_month: 'unlimited',
      });
      expect((await t.http().get('/api/v1/__probe/research').set(bearer(acc.key))).status).toBe(
        200,
      );
      expect((await other.http().get('/api/v1/__probe/research').set(bearer(acc.key))).status).toBe(
        200,
      );
      expect((await t.http().get('/api/v1/__probe/research').set(bearer(acc.key))).status).toBe(
        429,
      );
      expect((await other.http().get('/api/v1/__probe/research').set(bearer(acc.key))).status).toBe(
        429,
      );
    } finally {
      await other.close();
    }
  });
});
