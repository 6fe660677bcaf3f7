import { AdminClient, bearer } from '../helpers/fixtures';
import { ProbeModule } from '../helpers/probe.module';
import { createTestApp, TestApp } from '../helpers/test-app';

describe('GET /usage and the monthly call meter (spec: Usage record, Limits: Monthly API calls)', () => {
  let t: TestApp;
  let admin: AdminClient;

  beforeAll(async () => {
    t = await createTestApp({ imports: [ProbeModule], now: '2026-11-21T10:00:00Z' });
    admin = new AdminClient(t.url);
  });
  afterAll(() => t.close());

  it('reports plan in lower case, calls used (this call included), limit, unlimited, resets_at, meta.key_name', async () => {
    const acc = await admin.account('pro', undefined, 'Reporting dashboard');
    const first = await t.http().get('/api/v1/usage').set(bearer(acc.key));
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({
      plan: 'pro',
      api_calls_used: 1,
      api_calls_limit: 20,
      unlimited: false,
      resets_at: '2026-12-01',
    });
    expect(first.body.meta.key_name).toBe('Reporting dashboard');
    const second = await t.http().get('/api/v1/usage').set(bearer(acc.key));
    expect(second.body.data.api_calls_used).toBe(2);
  });

  it('agency allowance is 100; an unlimited override says so', async () => {
    const agency = await admin.account('agency');
    const a = await t.http().get('/api/v1/usage').set(bearer(agency.key));
    expect(a.body.data).toMatchObject({ plan: 'agency', api_calls_limit: 100, unlimited: false });
    const unl = await admin.account('pro', { api_calls_per_month: 'unlimited' });
    const u = await t.http().get('/api/v1/usage').set(bearer(unl.key));
    expect(u.body.data.unlimited).toBe(true);
  });

  it('counts errors that reach an endpoint (422) and cache-independent calls, not unknown routes', async () => {
    const acc = await admin.account('pro');
    await t.http().get('/api/v1/__probe/research?limit=abc').set(bearer(acc.key)); // 422, counted
    await t.http().get('/api/v1/__probe/your-data').set(bearer(acc.key)); // counted
    await t.http().get('/api/v1/unknown-endpoint').set(bearer(acc.key)); // 404, never reached an endpoint
    const res = await t.http().get('/api/v1/usage').set(bearer(acc.key));
    expect(res.body.data.api_calls_used).toBe(3);
  });

  it('at the cap, research routes get 429 RATE_LIMITED with meta.resets_at; your-data routes are served and counted', async () => {
    const acc = await admin.account('pro', { api_calls_per_month: 3 });
    for (let i = 0; i < 3; i++) {
      expect((await t.http().get('/api/v1/__probe/research').set(bearer(acc.key))).status).toBe(
        200,
      );
    }
    const refused = await t.http().get('/api/v1/__probe/research').set(bearer(acc.key));
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('RATE_LIMITED');
    expect(refused.body.meta.resets_at).toBe('2026-12-01');
    // "other" routes such as /usage are refused at the cap too
    expect((await t.http().get('/api/v1/usage').set(bearer(acc.key))).status).toBe(429);

    const yours = await t.http().get('/api/v1/__probe/your-data').set(bearer(acc.key));
    expect(yours.status).toBe(200);
    const read = await admin.get(`/accounts/${acc.id}`);
    expect(read.body.data.usage.api_calls_per_month).toBe(4); // 3 research + 1 your-data; refusals not counted
  });

  it('the month rollover (UTC) resets the meter', async () => {
    const local = await createTestApp({ imports: [ProbeModule], now: '2026-11-30T23:59:58Z' });
    try {
      const acc = await new AdminClient(local.url).account('pro', { api_calls_per_month: 1 });
      expect((await local.http().get('/api/v1/__probe/research').set(bearer(acc.key))).status).toBe(
        200,
      );
      const refused = await local.http().get('/api/v1/__probe/research').set(bearer(acc.key));
      expect(refused.status).toBe(429);
      expect(refused.body.meta.resets_at).toBe('2026-12-01');
      local.clock.set('2026-12-01T00:00:00Z');
      expect((await local.http().get('/api/v1/__probe/research').set(bearer(acc.key))).status).toBe(
        200,
      );
      local.clock.advance(1000);
      const refusedAgain = await local.http().get('/api/v1/usage').set(bearer(acc.key));
      expect(refusedAgain.status).toBe(429);
      expect(refusedAgain.body.meta.resets_at).toBe('2027-01-01');
    } finally {
      await local.close();
    }
  });

  it('exactness: 200 concurrent requests against 100 remaining admit exactly 100', async () => {
    const acc = await admin.account('agency', {
      api_calls_per_month: 100,
      requests_per_minute: 10_000,
    });
    const results = await Promise.all(
      Array.from({ length: 200 }, () =>
        t.http().get('/api/v1/__probe/research').set(bearer(acc.key)),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(100);
    expect(statuses.filter((s) => s === 429)).toHaveLength(100);
    const rows = await t.db.query('SELECT used FROM api_call_meter WHERE account_id = $1', [
      acc.id,
    ]);
    expect(rows[0].used).toBe(100);
  });

  it('exactness, call by call: concurrent calls share meter statements, each keeps its own count', async () => {
    // Under load an account's concurrent calls share one meter statement (group commit,
    // CallMeterService); each call still reports the count after its own: 1..150 once each.
    const acc = await admin.account('agency', {
      api_calls_per_month: 150,
      requests_per_minute: 10_000,
    });
    const results = await Promise.all(
      Array.from({ length: 300 }, () => t.http().get('/api/v1/usage').set(bearer(acc.key))),
    );
    const served = results.filter((r) => r.status === 200);
    expect(served).toHaveLength(150);
    expect(results.filter((r) => r.status === 429)).toHaveLength(150);
    const counts = served.map((r) => r.body.data.api_calls_used as number).sort((a, b) => a - b);
    expect(counts).toEqual(Array.from({ length: 150 }, (_, i) => i + 1));
    // Your-data calls past the cap: counted, never refused, each with its own count too.
    const yours = await Promise.all(
      Array.from({ length: 50 }, () => t.http().get('/api/v1/rank/keywords').set(bearer(acc.key))),
    );
    expect(yours.every((r) => r.status === 200)).toBe(true);
    const after = await t.http().get('/api/v1/rank/keywords').set(bearer(acc.key));
    expect(after.status).toBe(200);
    const rows = await t.db.query('SELECT used FROM api_call_meter WHERE account_id = $1', [
      acc.id,
    ]);
    expect(rows[0].used).toBe(201);
  });
});
