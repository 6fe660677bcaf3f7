import type { TestingModule } from '@nestjs/testing';
import { UsageAlertFiringRepository } from '@app/billing';
import { WebhookDeliveriesService, WebhookSweeperService } from '@app/webhooks';
import { UsageAlertsSweepService } from '../../apps/worker/src/usage-alerts-sweep.service';
import { signIn } from '../helpers/account-session';
import { AdminClient, bearer } from '../helpers/fixtures';
import { createTestApp, TestApp } from '../helpers/test-app';
import { startReceiver, until } from '../helpers/webhook-receiver';
import { startWorker } from '../site-audit/site-audit-helpers';

interface Delivery {
  threshold: number;
  api_calls_used: number;
  status: string;
  attempts: number;
}

/**
 * Issue 35, part 5: a usage alert is as durable as the meter's count. The API fires it by a
 * second statement after the meter's; when that statement fails, the worker's sweep derives
 * the alert from the meter row — at the cap, where no later call comes to retry, the alert
 * still fires, and its delivery is sent exactly once.
 */
describe("Usage alerts are derived from the meter's count", () => {
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
    await t?.close();
    await receiver?.close();
  });
  afterEach(() => jest.restoreAllMocks());

  const sweep = () => worker.get(UsageAlertsSweepService).runOnce();
  const usage = (key: string) => t.http().get('/api/v1/usage').set(bearer(key));
  const deliveries = (accountId: number): Promise<Delivery[]> =>
    t.db.query(
      `SELECT (payload ->> 'threshold')::int AS threshold,
              (payload ->> 'api_calls_used')::int AS api_calls_used, status, attempts
       FROM webhook_deliveries WHERE account_id = $1 AND event = 'usage.threshold_reached'
       ORDER BY 1`,
      [accountId],
    );
  const firedRows = async (accountId: number): Promise<number[]> =>
    (
      await t.db.query(
        `SELECT threshold FROM usage_alert_fired WHERE account_id = $1 ORDER BY threshold`,
        [accountId],
      )
    ).map((r: { threshold: number }) => r.threshold);
  /** An account with `limit` calls a month and alerts at `thresholds`, sent to a new endpoint. */
  const alerting = async (limit: number, thresholds: number[]) => {
    const acc = await admin.account('pro', { api_calls_per_month: limit });
    const me = await signIn(t.url, acc.id);
    const url = receiver.endpoint([200]);
    expect((await me.put('/alerts', { webhook_url: url, thresholds })).status).toBe(200);
    return { acc, url };
  };
  const receivedThresholds = (url: string) =>
    receiver
      .received(url)
      .map((r) => JSON.parse(r.body).data as { threshold: number; api_calls_used: number })
      .map((d) => [d.threshold, d.api_calls_used])
      .sort((a, b) => a[0] - b[0]);

  it("the second statement failing at the cap of 10: the worker's sweep fires 80 % and 100 %, delivered once each", async () => {
    // The statement that records the alert after the meter's commit fails every time in the
    // API (a dropped connection, a lock): only a warning there.
    const fire = jest
      .spyOn(t.app.get(UsageAlertFiringRepository), 'fire')
      .mockRejectedValue(new Error('Connection terminated unexpectedly'));
    const { acc, url } = await alerting(10, [80, 100]);
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await usage(acc.key)).status);
    expect(statuses).toEqual([...Array(10).fill(200), 429, 429]);
    expect(fire).toHaveBeenCalled();
    expect(await firedRows(acc.id)).toEqual([]);

    expect(await sweep()).toBeGreaterThanOrEqual(2);
    await until(
      async () => receiver.received(url),
      (r) => r.length >= 2,
    );
    expect(await sweep()).toBe(0); // nothing left to fire: exactly once
    await new Promise((r) => setTimeout(r, 500));
    expect(receivedThresholds(url)).toEqual([
      [80, 10],
      [100, 10],
    ]);
    expect(await firedRows(acc.id)).toEqual([80, 100]);
    expect(await deliveries(acc.id)).toEqual([
      { threshold: 80, api_calls_used: 10, status: 'delivered', attempts: 1 },
      { threshold: 100, api_calls_used: 10, status: 'delivered', attempts: 1 },
    ]);
  });

  it('a burst past the cap (group commit): each threshold fires once, with the count that reached it', async () => {
    const { acc, url } = await alerting(10, [50, 100]);
    const statuses = await Promise.all(Array.from({ length: 25 }, () => usage(acc.key)));
    expect(statuses.filter((r) => r.status === 200)).toHaveLength(10);
    await until(
      async () => receiver.received(url),
      (r) => r.length >= 2,
    );
    await new Promise((r) => setTimeout(r, 500));
    expect(receivedThresholds(url).map(([threshold]) => threshold)).toEqual([50, 100]);
    expect(receivedThresholds(url)[1]).toEqual([100, 10]);
    expect(await firedRows(acc.id)).toEqual([50, 100]);
    await sweep(); // the sweep finds nothing of this account to add
    expect(await deliveries(acc.id)).toHaveLength(2);
  });

  it("the enqueue lost after the commit (Redis or the API gone): the worker's sweep delivers it once", async () => {
    const enqueue = jest
      .spyOn(t.app.get(WebhookDeliveriesService), 'enqueueCommitted')
      .mockResolvedValue(undefined);
    const { acc, url } = await alerting(4, [100]);
    for (let i = 0; i < 5; i++) await usage(acc.key);
    expect(enqueue).toHaveBeenCalledTimes(1);
    expect(await deliveries(acc.id)).toEqual([
      { threshold: 100, api_calls_used: 4, status: 'pending', attempts: 0 },
    ]);
    t.clock.advance(2 * 60_000); // past the sweep's grace
    try {
      expect(await worker.get(WebhookSweeperService).runOnce()).toBeGreaterThanOrEqual(1);
      await until(
        async () => receiver.received(url),
        (r) => r.length >= 1,
      );
    } finally {
      t.clock.advance(-2 * 60_000);
    }
    await new Promise((r) => setTimeout(r, 300));
    expect(receivedThresholds(url)).toEqual([[100, 4]]);
    expect((await deliveries(acc.id))[0]).toMatchObject({ status: 'delivered', attempts: 1 });
  });

  it('the largest allowance (1e9): the sweep computes in 64 bits', async () => {
    const { acc, url } = await alerting(1_000_000_000, [1, 100]);
    expect((await usage(acc.key)).status).toBe(200);
    await t.db.query(`UPDATE api_call_meter SET used = 1000000000 WHERE account_id = $1`, [acc.id]);
    await sweep();
    expect(await firedRows(acc.id)).toEqual([1, 100]);
    await until(
      async () => receiver.received(url),
      (r) => r.length >= 2,
    );
  });

  it('the sweep leaves alone accounts below their thresholds, unlimited ones and alerts turned off', async () => {
    const below = await alerting(10, [80]);
    for (let i = 0; i < 7; i++) await usage(below.acc.key);
    const unlimited = await alerting(10, [1]);
    await admin.patch(`/accounts/${unlimited.acc.id}`, {
      overrides: { api_calls_per_month: 'unlimited' },
    });
    await usage(unlimited.acc.key);
    const off = await admin.account('pro', { api_calls_per_month: 2 });
    const me = await signIn(t.url, off.id);
    expect((await me.put('/alerts', { webhook_url: null, thresholds: [50] })).status).toBe(200);
    for (let i = 0; i < 2; i++) await usage(off.key);
    await sweep();
    for (const id of [below.acc.id, unlimited.acc.id, off.id]) {
      expect(await firedRows(id)).toEqual([]);
      expect(await deliveries(id)).toEqual([]);
    }
  });

  it('alerts turned on after the count passed a threshold: the next counted call fires it, once', async () => {
    const acc = await admin.account('pro', { api_calls_per_month: 10 });
    for (let i = 0; i < 8; i++) await usage(acc.key);
    const me = await signIn(t.url, acc.id);
    const url = receiver.endpoint([200]);
    expect((await me.put('/alerts', { webhook_url: url, thresholds: [50] })).status).toBe(200);
    await usage(acc.key);
    await usage(acc.key);
    await until(
      async () => receiver.received(url),
      (r) => r.length >= 1,
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(receivedThresholds(url)).toEqual([[50, 9]]);
    expect(await firedRows(acc.id)).toEqual([50]);
  });

  it('alerts turned on after the count passed a threshold, and no call after: the sweep fires it', async () => {
    const acc = await admin.account('pro', { api_calls_per_month: 10 });
    for (let i = 0; i < 8; i++) await usage(acc.key);
    const me = await signIn(t.url, acc.id);
    const url = receiver.endpoint([200]);
    expect((await me.put('/alerts', { webhook_url: url, thresholds: [50, 90] })).status).toBe(200);
    await sweep();
    await until(
      async () => receiver.received(url),
      (r) => r.length >= 1,
    );
    expect(receivedThresholds(url)).toEqual([[50, 8]]);
    expect(await firedRows(acc.id)).toEqual([50]);
  });
});
