import { Clock, SystemClock } from '@app/core';
import { ClockSkewMonitor } from '@app/database';
import { AdminClient, bearer } from '../helpers/fixtures';
import { ADMIN_TOKEN, createTestApp, TestApp } from '../helpers/test-app';

/**
 * A process clock that runs `offsetMs` ahead of the machine's and, like the production
 * SystemClock, leaves the month of every count to PostgreSQL (`statementTime()` null).
 */
class AheadClock extends SystemClock {
  offsetMs = 0;
  override now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
}

const DAY_MS = 86_400_000;

/**
 * Issue 35, part 6 (first half): the month of the meter and of the quotas, and the rolling
 * page-budget window, come from PostgreSQL's clock (the statement's `now()`), not from the
 * API process's. An API whose clock runs days ahead, across the database's month boundary,
 * still counts in the database's month; its skew is reported by /health/ready and /metrics.
 */
describe("Clocks: counts use PostgreSQL's month, whatever the process clock says", () => {
  const clock = new AheadClock();
  let t: TestApp;
  let admin: AdminClient;
  /** The database's month, the first of its next month, and ms until then (PostgreSQL's clock). */
  let db: { month: string; next: string; toNextMs: number; day: string };

  beforeAll(async () => {
    t = await createTestApp({
      env: { AUDIT_ALLOW_PRIVATE_NETWORKS: 'true', KEY_CACHE_TTL_MS: '0' },
      configure: (b) => b.overrideProvider(Clock).useValue(clock),
    });
    admin = new AdminClient(t.url);
    const [row] = await t.db.query(
      `SELECT date_trunc('month', now() AT TIME ZONE 'UTC')::date::text AS month,
              (date_trunc('month', now() AT TIME ZONE 'UTC') + interval '1 month')::date::text AS next,
              (extract(epoch FROM (date_trunc('month', now() AT TIME ZONE 'UTC') + interval '1 month')
                                   - (now() AT TIME ZONE 'UTC')) * 1000)::float8 AS "toNextMs",
              (now() AT TIME ZONE 'UTC')::date::text AS day`,
    );
    db = row;
  });
  afterAll(async () => {
    await t?.close();
  });
  afterEach(() => {
    clock.offsetMs = 0;
  });

  /** The process clock 1 hour into the database's next month (days ahead, as in the issue). */
  const aheadIntoNextMonth = () => {
    clock.offsetMs = db.toNextMs + 3_600_000;
  };
  const usage = (key: string) => t.http().get('/api/v1/usage').set(bearer(key));

  it('the monthly call limit holds when the process clock crosses into the next month', async () => {
    const acc = await admin.account('pro', { api_calls_per_month: 5 });
    for (let i = 0; i < 5; i++) expect((await usage(acc.key)).status).toBe(200);
    aheadIntoNextMonth();
    expect(clock.now().toISOString() >= `${db.next}T00:00:00`).toBe(true);
    for (let i = 0; i < 3; i++) {
      const refused = await usage(acc.key);
      expect(refused.status).toBe(429);
      expect(refused.body.error.code).toBe('RATE_LIMITED');
      expect(refused.body.meta).toMatchObject({ resets_at: db.next, limit: 5 });
    }
    const meters = await t.db.query(
      `SELECT period_start::text AS period, used FROM api_call_meter WHERE account_id = $1`,
      [acc.id],
    );
    expect(meters).toEqual([{ period: db.month, used: 5 }]);
    // The history's days are the statement's too: this month's days sum to the meter.
    const days = await t.db.query(
      `SELECT day::text AS day, sum(calls)::int AS calls FROM usage_events WHERE account_id = $1 GROUP BY day`,
      [acc.id],
    );
    expect(days).toEqual([{ day: db.day, calls: 5 }]);
  });

  it("GET /usage with the clock ahead: this month's count, resets_at the database's next month", async () => {
    const acc = await admin.account('pro', { api_calls_per_month: 10 });
    expect((await usage(acc.key)).status).toBe(200);
    aheadIntoNextMonth();
    const res = await usage(acc.key);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ api_calls_used: 2, resets_at: db.next });
    expect(res.body.meta.period_start).toBe(db.month);
    const view = await admin.get(`/accounts/${acc.id}`);
    expect(view.body.data.usage.api_calls_per_month).toBe(2);
  });

  it('the monthly crawl count holds with the clock ahead; the refusal names the database reset', async () => {
    const acc = await admin.account('pro', { site_audit_crawls_per_month: 1 });
    const audit = () =>
      t
        .http()
        .post('/api/v1/site-audit')
        .set(bearer(acc.key))
        .send({ url: 'http://127.0.0.1:9/', max_pages: 1 });
    expect((await audit()).status).toBe(202);
    aheadIntoNextMonth();
    const refused = await audit();
    expect(refused.status).toBe(429);
    expect(refused.body.meta).toMatchObject({
      quota: 'site_audit_crawls_per_month',
      limit: 1,
      resets_at: db.next,
    });
    const rows = await t.db.query(
      `SELECT period_start::text AS period, used FROM feature_usage WHERE account_id = $1`,
      [acc.id],
    );
    expect(rows).toEqual([{ period: db.month, used: 1 }]);
  });

  it("the rolling page budget is measured with the database's clock", async () => {
    const acc = await admin.account('pro', {
      site_audit_crawls_per_month: 10,
      site_audit_pages_per_crawl: 5,
      site_audit_rolling_page_budget: 5,
    });
    const audit = () =>
      t
        .http()
        .post('/api/v1/site-audit')
        .set(bearer(acc.key))
        .send({ url: 'http://127.0.0.1:9/', max_pages: 5 });
    expect((await audit()).status).toBe(202);
    clock.offsetMs = 31 * DAY_MS; // past the 30-day window by the process's clock only
    const refused = await audit();
    expect(refused.status).toBe(429);
    expect(refused.body.meta).toMatchObject({
      quota: 'site_audit_rolling_page_budget',
      limit: 5,
      used: 5,
    });
    // Refused on pages: the crawl unit of that request was rolled back with it.
    const [crawls] = await t.db.query(
      `SELECT used FROM feature_usage WHERE account_id = $1 AND feature = 'site_audit_crawls'`,
      [acc.id],
    );
    expect(crawls.used).toBe(1);
  });

  it('skew: /health/ready and /metrics report it; readiness does not fail on it', async () => {
    const monitor = t.app.get(ClockSkewMonitor);
    await monitor.runOnce();
    let ready = await t.http().get('/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body.data.clock.status).toBe('ok');
    expect(Math.abs(ready.body.data.clock.skew_ms)).toBeLessThan(1000);

    clock.offsetMs = 4 * DAY_MS;
    await monitor.runOnce();
    ready = await t.http().get('/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body.data.status).toBe('ok');
    expect(ready.body.data.clock).toEqual({
      status: 'skewed',
      skew_ms: expect.any(Number),
      max_skew_ms: 5000,
    });
    expect(Math.abs(ready.body.data.clock.skew_ms - 4 * DAY_MS)).toBeLessThan(1000);
    const metrics = await t.http().get('/metrics').set(bearer(ADMIN_TOKEN()));
    const line = metrics.text.split('\n').find((l) => l.startsWith('process_clock_skew_seconds '));
    expect(Number(line?.split(' ')[1])).toBeGreaterThan(4 * 86_400 - 1);

    clock.offsetMs = -10_000;
    await monitor.runOnce();
    ready = await t.http().get('/health/ready');
    expect(ready.body.data.clock.status).toBe('skewed');
    expect(ready.body.data.clock.skew_ms).toBeLessThan(-9000);

    clock.offsetMs = 0;
    await monitor.runOnce();
    expect((await t.http().get('/health/ready')).body.data.clock.status).toBe('ok');
  });
});
