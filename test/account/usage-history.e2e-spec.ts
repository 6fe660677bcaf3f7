import request from 'supertest';
import type { TestingModule } from '@nestjs/testing';
import {
  UsageEventsRollupService,
  UsageHistoryRepository,
  UsageHistoryRetentionService,
} from '@app/billing';
import { plainDate } from '@app/core';
import { signIn, SignedInUser } from '../helpers/account-session';
import { AdminClient, bearer, TestAccount } from '../helpers/fixtures';
import { Spawned, freePort, spawnDist, waitForHttp } from '../helpers/processes';
import { createTestApp, TestApp } from '../helpers/test-app';
import { startReceiver, until, verifies } from '../helpers/webhook-receiver';
import { startWorker } from '../site-audit/site-audit-helpers';
import { sqlQuery } from '../chaos/chaos-helpers';
import { connect, createPerson, startOAuthApp } from '../oauth/oauth-helpers';

interface HistoryDay {
  date: string;
  calls: number;
  research: number;
  your_data: number;
  other: number;
}
interface History {
  from: string;
  to: string;
  days: HistoryDay[];
  keys: Array<{ id: number; label: string; prefix: string | null; calls: number }>;
  endpoints: Array<{ endpoint: string; calls: number }>;
}

/**
 * Contract: docs/usage-history.md and docs/api.md ("Account area"). A call is in the
 * history exactly when the monthly meter counted it (the same statement), by day, key or
 * connection, endpoint and cost group; thresholds fire one signed usage.threshold_reached
 * delivery per month whatever the concurrency.
 */
describe('Usage history and usage alerts', () => {
  let t: TestApp;
  let admin: AdminClient;
  let worker: TestingModule;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    receiver = await startReceiver();
    t = await createTestApp({
      env: {
        AUDIT_ALLOW_PRIVATE_NETWORKS: 'true',
        WEBHOOK_RETRY_SCHEDULE_MS: '100,100,100',
        KEY_CACHE_TTL_MS: '0',
      },
    });
    admin = new AdminClient(t.url);
    worker = await startWorker(t.config, t.clock);
  });
  afterAll(async () => {
    await worker?.close();
    await t.close();
    await receiver.close();
  });

  const get = (key: string, path: string) => t.http().get(`/api/v1${path}`).set(bearer(key));
  const history = async (me: SignedInUser, days?: number): Promise<History> => {
    const res = await me.get(`/usage/history${days === undefined ? '' : `?days=${days}`}`);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    return res.body.data as History;
  };
  const sum = (h: History) => h.days.reduce((n, d) => n + d.calls, 0);

  describe('history', () => {
    let acc: TestAccount;
    let me: SignedInUser;
    let second: { id: number; key: string };

    beforeAll(async () => {
      acc = await admin.account('pro', { api_calls_per_month: 1000 }, 'Reporting script');
      me = await signIn(t.url, acc.id);
      const created = await admin.post(`/accounts/${acc.id}/api-keys`, { label: 'Dashboard' });
      second = { id: created.body.data.id, key: created.body.data.key };
      for (let i = 0; i < 3; i++) expect((await get(acc.key, '/usage')).status).toBe(200);
      expect((await get(acc.key, '/rank/keywords')).status).toBe(200);
      expect((await get(acc.key, '/jobs/job_AAAAAAAAAAAAAAAAAAAAAA')).status).toBe(404); // counted
      expect((await get(second.key, '/rank/keywords')).status).toBe(200);
      expect((await get(second.key, '/rank/keywords?limit=abc')).status).toBe(422); // counted
      // Refused before the meter: not counted.
      expect((await get('seo_live_' + 'x'.repeat(40), '/usage')).status).toBe(401);
      expect((await t.http().get('/api/v1/usage')).status).toBe(401);
      // The second key is revoked: it stays in the history.
      expect((await admin.delete(`/api-keys/${second.id}`)).status).toBe(200);
    });

    it('30 days by default, oldest first, zeros included, to today (UTC)', async () => {
      const h = await history(me);
      const today = plainDate(t.clock.now());
      expect(h.to).toBe(today);
      expect(h.days).toHaveLength(30);
      expect(h.days[29].date).toBe(today);
      expect(h.from).toBe(h.days[0].date);
      expect(h.days[0]).toEqual({ date: h.from, calls: 0, research: 0, your_data: 0, other: 0 });
      expect(h.days[29]).toEqual({ date: today, calls: 7, research: 0, your_data: 3, other: 4 });
    });

    it('keys (revoked ones too) and endpoints, most calls first, named as the spec writes them', async () => {
      const h = await history(me, 7);
      expect(h.keys).toEqual([
        { id: acc.keyId, label: 'Reporting script', prefix: expect.any(String), calls: 5 },
        { id: second.id, label: 'Dashboard', prefix: expect.any(String), calls: 2 },
      ]);
      expect(h.keys[0].prefix).toMatch(/^seo_/);
      expect(h.endpoints).toEqual([
        { endpoint: 'GET /rank/keywords', calls: 3 },
        { endpoint: 'GET /usage', calls: 3 },
        { endpoint: 'GET /jobs/{job_id}', calls: 1 },
      ]);
    });

    it("this month's days sum to the meter (GET /usage after its own count)", async () => {
      const used = (await get(acc.key, '/usage')).body.data.api_calls_used as number;
      const h = await history(me, 31);
      const month = plainDate(t.clock.now()).slice(0, 7);
      const thisMonth = h.days.filter((d) => d.date.startsWith(month));
      expect(thisMonth.reduce((n, d) => n + d.calls, 0)).toBe(used);
    });

    it('days: 1 to 400; anything else is 422 VALIDATION_ERROR', async () => {
      expect((await history(me, 1)).days).toHaveLength(1);
      expect((await history(me, 400)).days).toHaveLength(400);
      for (const bad of ['0', '401', 'abc', '1.5', '-3', '', '1e2', '30&days=31']) {
        const res = await me.get(`/usage/history?days=${bad}`);
        expect({ bad, status: res.status, code: res.body.error?.code }).toEqual({
          bad,
          status: 422,
          code: 'VALIDATION_ERROR',
        });
      }
    });

    it('needs a session; reads only the own account; the admin twin answers the same', async () => {
      expect((await request(t.url).get('/account/v1/usage/history')).status).toBe(401);
      const other = await admin.account('pro');
      const them = await signIn(t.url, other.id);
      expect(sum(await history(them))).toBe(0);

      const viaAdmin = await admin.get(`/accounts/${acc.id}/usage/history?days=7`);
      expect(viaAdmin.status).toBe(200);
      expect(viaAdmin.body.data).toEqual(await history(me, 7));
      expect((await admin.get('/accounts/999999999/usage/history')).status).toBe(404);
      expect((await admin.get(`/accounts/${acc.id}/usage/history?days=0`)).status).toBe(422);
      expect((await request(t.url).get(`/admin/v1/accounts/${acc.id}/usage/history`)).status).toBe(
        401,
      );
    });

    it('the retention keeps 13 months before the current one', async () => {
      expect(UsageHistoryRetentionService.cutoff(new Date('2026-11-24T10:00:00Z'))).toBe(
        '2025-10-01',
      );
      await t.db.query(
        `INSERT INTO usage_daily (account_id, day, key_id, grant_id, endpoint, cost_group, calls)
         VALUES ($1, $2::date - interval '14 months', $3, 0, 'GET /usage', 'other', 5),
                ($1, $2::date - interval '12 months', $3, 0, 'GET /usage', 'other', 6)`,
        [acc.id, plainDate(t.clock.now()), acc.keyId],
      );
      await worker.get(UsageHistoryRetentionService).runOnce();
      const left = await t.db.query(
        `SELECT calls FROM usage_daily WHERE account_id = $1 AND day < $2::date - interval '11 months'`,
        [acc.id, plainDate(t.clock.now())],
      );
      expect(left.map((r: { calls: number }) => r.calls)).toEqual([6]);
    });
  });

  it('calls through a hosted-MCP connection are listed under the connected app, prefix null', async () => {
    const oauth = await startOAuthApp({
      env: { REDIS_PREFIX: `${process.env.REDIS_PREFIX}:usage-oauth` },
    });
    try {
      const person = await createPerson(oauth.base, 'pro');
      const { access } = await connect(oauth.base, person);
      const res = await fetch(`${oauth.base}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${access}`,
          'mcp-protocol-version': '2025-06-18',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'list_rank_keywords', arguments: {} },
        }),
      });
      expect(res.status).toBe(200);
      await res.text();
      const me = await signIn(oauth.base, person.account.id);
      const h = (await me.get('/usage/history?days=1')).body.data as History;
      expect(h.keys).toEqual([
        { id: expect.any(Number), label: 'Test Assistant', prefix: null, calls: 1 },
      ]);
      expect(h.endpoints).toEqual([{ endpoint: 'GET /rank/keywords', calls: 1 }]);
      expect(h.days[0]).toMatchObject({ calls: 1, your_data: 1 });
    } finally {
      await oauth.close();
    }
  });

  it('the roll-up survives being cancelled mid-statement and running twice at once: no call lost or doubled', async () => {
    const acc = await admin.account('pro');
    const total = async () =>
      (
        await t.db.query(
          `SELECT (SELECT coalesce(sum(calls), 0) FROM usage_daily WHERE account_id = $1)
                + (SELECT coalesce(sum(calls), 0) FROM usage_events WHERE account_id = $1) AS n`,
          [acc.id],
        )
      )[0].n as string;
    // 200,000 events as the meter appends them (a few days, two endpoints).
    await t.db.query(
      `INSERT INTO usage_events (account_id, day, key_id, grant_id, endpoint, cost_group, calls)
       SELECT $1, current_date - (i % 3), $2, 0, CASE WHEN i % 2 = 0 THEN 'GET /usage' ELSE 'GET /rank/keywords' END,
              CASE WHEN i % 2 = 0 THEN 'other' ELSE 'your-data' END, 1 + i % 4
       FROM generate_series(1, 200000) AS i`,
      [acc.id, acc.keyId],
    );
    const before = await total();
    const rollup = worker.get(UsageEventsRollupService);
    // One roll-up cancelled by the server while it runs (as a killed connection would end it).
    const cancelled = t.app
      .get(UsageHistoryRepository)
      .rollUp(200_000)
      .catch((err: Error) => err);
    await new Promise((r) => setTimeout(r, 30));
    await t.db.query(
      `SELECT pg_cancel_backend(pid) FROM pg_stat_activity
       WHERE query LIKE '%DELETE FROM usage_events%' AND pid <> pg_backend_pid()`,
    );
    await cancelled;
    expect(await total()).toBe(before);
    // Two at once (two workers): each event moved once.
    await Promise.all([rollup.runOnce(), t.app.get(UsageHistoryRepository).rollUp(50_000)]);
    await rollup.runOnce();
    expect(await total()).toBe(before);
    const left = await t.db.query(
      `SELECT count(*)::int AS n FROM usage_events WHERE account_id = $1`,
      [acc.id],
    );
    expect(left[0].n).toBe(0);
  });

  describe('alerts', () => {
    it('GET: defaults; PUT replaces; bad values are 422 and change nothing', async () => {
      const acc = await admin.account('pro', { api_calls_per_month: 10 });
      const me = await signIn(t.url, acc.id);
      expect((await me.get('/alerts')).body.data).toEqual({
        webhook_url: null,
        thresholds: [80, 100],
        last_fired: [],
      });
      const url = receiver.endpoint([200]);
      const saved = await me.put('/alerts', { webhook_url: url, thresholds: [100, 50] });
      expect(saved.status).toBe(200);
      expect(saved.body.data).toEqual({ webhook_url: url, thresholds: [50, 100], last_fired: [] });

      const bad: unknown[] = [
        {},
        { thresholds: [80] },
        { webhook_url: url, thresholds: [] },
        { webhook_url: url, thresholds: [10, 20, 30, 40] },
        { webhook_url: url, thresholds: [80, 80] },
        { webhook_url: url, thresholds: [0] },
        { webhook_url: url, thresholds: [101] },
        { webhook_url: url, thresholds: [50.5] },
        { webhook_url: url, thresholds: ['80'] },
        { webhook_url: url, thresholds: 80 },
        { webhook_url: 'ftp://example.com/x' },
        { webhook_url: 'javascript:alert(1)' },
        { webhook_url: 'https://user:pw@example.com/x' },
        { webhook_url: 'https://10.0.0.1/hook' },
        { webhook_url: 42 },
        { webhook_url: url, thresholds: [80], extra: true },
      ];
      const strict = await createTestApp({ env: { AUDIT_ALLOW_PRIVATE_NETWORKS: 'false' } });
      try {
        const strictMe = await signIn(strict.url, acc.id);
        for (const body of bad) {
          const res = await strictMe.put('/alerts', body);
          expect({ body, status: res.status, code: res.body.error?.code }).toEqual({
            body,
            status: 422,
            code: 'VALIDATION_ERROR',
          });
        }
        // http to loopback only where private networks are allowed (tests, local runs).
        expect((await strictMe.put('/alerts', { webhook_url: url })).status).toBe(422);
      } finally {
        await strict.close();
      }
      expect((await me.get('/alerts')).body.data.thresholds).toEqual([50, 100]);
      const off = await me.put('/alerts', { webhook_url: null });
      expect(off.body.data).toEqual({ webhook_url: null, thresholds: [80, 100], last_fired: [] });
    });

    it('a call that reaches a threshold sends one signed usage.threshold_reached delivery', async () => {
      const acc = await admin.account('pro', { api_calls_per_month: 10 });
      const me = await signIn(t.url, acc.id);
      const url = receiver.endpoint([200]);
      expect((await me.put('/alerts', { webhook_url: url, thresholds: [50] })).status).toBe(200);
      for (let i = 0; i < 4; i++) await get(acc.key, '/usage');
      expect(receiver.received(url)).toHaveLength(0);
      await get(acc.key, '/usage'); // the 5th of 10: 50 %
      const got = await until(
        async () => receiver.received(url),
        (r) => r.length >= 1,
      );
      for (let i = 0; i < 3; i++) await get(acc.key, '/usage');
      await new Promise((r) => setTimeout(r, 300));
      expect(receiver.received(url)).toHaveLength(1);
      const body = JSON.parse(got[0].body);
      expect(body.type).toBe('usage.threshold_reached');
      expect(body.data).toEqual({
        threshold: 50,
        api_calls_used: 5,
        api_calls_limit: 10,
        resets_at: expect.stringMatching(/^\d{4}-\d{2}-01$/),
      });
      const secret = (await me.get('/webhook-secret')).body.data.secret as string;
      expect(verifies(secret, got[0].headers, got[0].body)).toBe(true);

      const deliveries = (await me.get('/webhook-deliveries')).body.data;
      expect(deliveries).toEqual([
        expect.objectContaining({
          job_id: null,
          event: 'usage.threshold_reached',
          status: 'delivered',
        }),
      ]);
      const alerts = (await me.get('/alerts')).body.data;
      expect(alerts.last_fired).toEqual([
        {
          threshold: 50,
          month: plainDate(t.clock.now()).slice(0, 7),
          fired_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
        },
      ]);
    });

    it('unlimited accounts never fire; alerts off send nothing', async () => {
      const unl = await admin.account('pro', { api_calls_per_month: 'unlimited' });
      const me = await signIn(t.url, unl.id);
      await me.put('/alerts', { webhook_url: receiver.endpoint([200]), thresholds: [1] });
      for (let i = 0; i < 3; i++) await get(unl.key, '/usage');
      const off = await admin.account('pro', { api_calls_per_month: 2 });
      for (let i = 0; i < 3; i++) await get(off.key, '/rank/keywords');
      const rows = await t.db.query(
        `SELECT count(*)::int AS n FROM webhook_deliveries WHERE account_id = ANY($1)`,
        [[unl.id, off.id]],
      );
      expect(rows[0].n).toBe(0);
    });
  });

  describe('under concurrency, over two API processes', () => {
    const apis: Spawned[] = [];
    const bases: string[] = [];

    beforeAll(async () => {
      for (let i = 0; i < 2; i++) {
        const port = await freePort();
        apis.push(
          spawnDist('apps/api/src/main.js', {
            PORT: String(port),
            LOG_LEVEL: 'silent',
            AUDIT_ALLOW_PRIVATE_NETWORKS: 'true',
          }),
        );
        bases.push(`http://127.0.0.1:${port}`);
      }
      await Promise.all(bases.map((b) => waitForHttp(`${b}/health/live`)));
    }, 60_000);
    afterAll(async () => {
      for (const p of apis) p.child.kill('SIGTERM');
      await Promise.all(apis.map((p) => p.exited));
    });

    /** `n` calls of `path`, spread over both processes, all at once; the statuses. */
    const burst = (key: string, path: string, n: number) =>
      Promise.all(
        Array.from({ length: n }, (_, i) =>
          fetch(`${bases[i % 2]}/api/v1${path}`, { headers: bearer(key) }).then((r) => r.status),
        ),
      );

    it('600 calls past the cap (your-data included): history = meter, by group', async () => {
      const acc = await admin.account('pro', {
        api_calls_per_month: 250,
        requests_per_minute: 10_000,
      });
      const [other, yours] = await Promise.all([
        burst(acc.key, '/usage', 300),
        burst(acc.key, '/rank/keywords', 300),
      ]);
      const served = other.filter((s) => s === 200).length;
      expect(served).toBeLessThanOrEqual(250);
      expect(other.filter((s) => s !== 200 && s !== 429)).toEqual([]);
      expect(yours.every((s) => s === 200)).toBe(true); // never refused at the cap
      const [meter] = await sqlQuery<{ used: number }>(
        process.env.DATABASE_URL!,
        `SELECT used FROM api_call_meter WHERE account_id = $1`,
        [acc.id],
      );
      // Wherever the calls are (appended events, or rolled up into days), they are the meter's.
      const groups = () =>
        sqlQuery<{ cost_group: string; calls: number }>(
          process.env.DATABASE_URL!,
          `SELECT cost_group, sum(calls)::int AS calls FROM (
             SELECT cost_group, calls FROM usage_daily WHERE account_id = $1
             UNION ALL SELECT cost_group, calls FROM usage_events WHERE account_id = $1) c
           GROUP BY 1 ORDER BY 1`,
          [acc.id],
        );
      const expected = [
        { cost_group: 'other', calls: served },
        { cost_group: 'your-data', calls: 300 },
      ];
      expect(meter.used).toBe(served + 300);
      expect(await groups()).toEqual(expected);
      // The roll-up (the worker's, every 5 s) moves them all into the days, none lost or doubled.
      await worker.get(UsageEventsRollupService).runOnce();
      const [left] = await sqlQuery<{ n: number }>(
        process.env.DATABASE_URL!,
        `SELECT count(*)::int AS n FROM usage_events WHERE account_id = $1`,
        [acc.id],
      );
      expect(left.n).toBe(0);
      expect(await groups()).toEqual(expected);
    });

    it('200 calls crossing 80 % and 100 % together: one delivery per threshold', async () => {
      const acc = await admin.account('pro', {
        api_calls_per_month: 100,
        requests_per_minute: 10_000,
      });
      const me = await signIn(t.url, acc.id);
      const url = receiver.endpoint([200]);
      expect((await me.put('/alerts', { webhook_url: url, thresholds: [80, 100] })).status).toBe(
        200,
      );
      // Within a second every process has dropped its cached callers of the account.
      await new Promise((r) => setTimeout(r, 1_100));
      await burst(acc.key, '/rank/keywords', 200);
      const rows = await sqlQuery<{ event: string; payload: { threshold: number } }>(
        process.env.DATABASE_URL!,
        `SELECT event, payload FROM webhook_deliveries WHERE account_id = $1 ORDER BY payload->>'threshold'`,
        [acc.id],
      );
      expect(rows.map((r) => [r.event, r.payload.threshold])).toEqual([
        ['usage.threshold_reached', 100],
        ['usage.threshold_reached', 80],
      ]);
      const fired = await sqlQuery<{ threshold: number }>(
        process.env.DATABASE_URL!,
        `SELECT threshold FROM usage_alert_fired WHERE account_id = $1 ORDER BY threshold`,
        [acc.id],
      );
      expect(fired.map((f) => f.threshold)).toEqual([80, 100]);
    });
  });
});
