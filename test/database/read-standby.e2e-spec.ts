import { DataSource } from 'typeorm';
import { metrics } from '@app/core';
import { ReadSql, Sql, StandbyStatus } from '@app/database';
import { dataSourceOptions } from '../../libs/database/src/data-source-options';
import { AdminClient, TestAccount, bearer } from '../helpers/fixtures';
import { PgCluster } from '../helpers/pg-cluster';
import { createTestApp, TestApp } from '../helpers/test-app';
import { YourDataAdmin } from '../your-data/your-data-fixtures';

/**
 * The read standby (issue 22): a real PostgreSQL primary and streaming hot standby (the
 * machine's binaries, test/helpers/pg-cluster.ts); the app reads your-data from the standby
 * while it is in use, from the primary while it lags or is down, and back again when it
 * recovers; never a 5xx on the way.
 */
const MAX_LAG_MS = 3000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('Read standby: your-data reads on a hot standby, the primary when it lags or is down', () => {
  let pg: PgCluster;
  let t: TestApp;
  let admin: AdminClient;
  let yd: YourDataAdmin;
  let acc: TestAccount;
  let project: number;
  let reads: ReadSql;

  const keywordCount = async () => {
    const res = await fetch(`${t.url}/api/v1/rank/keywords?project_id=${project}`, {
      headers: bearer(acc.key),
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: { keywords: unknown[] } }).data.keywords.length;
  };
  // The operator's view (the admin token): with the node's address (issue 43, item 5).
  const ready = async () =>
    (await (
      await fetch(`${t.url}/health/ready`, {
        headers: { Authorization: `Bearer ${process.env.ADMIN_TOKEN}` },
      })
    ).json()) as {
      data: {
        standby: {
          state: string;
          lag_ms: number | null;
          node: { address: string | null; port: number | null } | null;
        };
      };
    };
  const until = async (what: string, ok: () => Promise<boolean>, timeoutMs = 5000) => {
    const started = Date.now();
    while (!(await ok())) {
      if (Date.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
      await sleep(50);
    }
    return Date.now() - started;
  };

  beforeAll(async () => {
    pg = await PgCluster.start();
    const primaryUrl = await pg.createDatabase('seo_standby');
    const ds = new DataSource(dataSourceOptions(primaryUrl, 2));
    await ds.initialize();
    await ds.runMigrations({ transaction: 'each' });
    await ds.destroy();
    await pg.waitForReplay();
    t = await createTestApp({
      env: {
        DATABASE_URL: primaryUrl,
        DATABASE_READ_URL: pg.standbyUrl('seo_standby'),
        DATABASE_READ_MAX_LAG_MS: String(MAX_LAG_MS),
      },
    });
    reads = t.app.get(ReadSql);
    admin = new AdminClient(t.url);
    yd = new YourDataAdmin(admin);
    acc = await admin.account('pro', {
      api_calls_per_month: 'unlimited',
      requests_per_minute: 100_000,
    });
    project = await yd.rankProject(acc.id, 'standby.example', 'Standby');
    for (let i = 0; i < 3; i++) await yd.keyword(project, `kw ${i}`);
    await pg.waitForReplay();
    await reads.check();
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await pg?.stop();
  }, 60_000);

  it("in use: /health/ready and /metrics show it; the reads are the standby's (a write it has not replayed is not seen)", async () => {
    // The node the read pool reaches is named (issue 43: behind HAProxy, which replica).
    expect((await ready()).data.standby).toEqual({
      state: 'in_use',
      lag_ms: 0,
      node: { address: '127.0.0.1/32', port: pg.standbyPort },
    });
    // Without a token: the state and lag, never the address.
    const anonymous = (await (await fetch(`${t.url}/health/ready`)).json()) as {
      data: { standby: unknown };
    };
    expect(anonymous.data.standby).toEqual({
      state: 'in_use',
      lag_ms: 0,
    });
    const metrics = await fetch(`${t.url}/metrics`, {
      headers: { Authorization: `Bearer ${process.env.ADMIN_TOKEN}` },
    });
    const text = await metrics.text();
    expect(text).toMatch(/^db_standby_in_use 1$/m);
    expect(text).toContain(
      `db_standby_node_info{address="127.0.0.1/32",port="${pg.standbyPort}"} 1`,
    );
    expect(await keywordCount()).toBe(3);

    // A fresh replayed write, then replay paused: the standby is behind but not for long yet.
    await yd.keyword(project, 'kw replayed');
    await pg.waitForReplay();
    await pg.pauseReplay(true);
    try {
      await yd.keyword(project, 'kw not replayed');
      await reads.check();
      expect(reads.status().state).toBe('in_use');
      expect(await keywordCount()).toBe(4); // the standby's view: the last keyword is missing
      // Once the standby is staler than DATABASE_READ_MAX_LAG_MS, the reads go to the primary.
      const switched = await until(
        'lagging',
        async () => (await ready()).data.standby.state === 'lagging',
        MAX_LAG_MS + 3000,
      );
      expect((await ready()).data.standby.lag_ms).toBeGreaterThan(MAX_LAG_MS);
      expect(await keywordCount()).toBe(5);
      console.log(`Read standby: lagging detected ${switched} ms after the write`);
    } finally {
      await pg.pauseReplay(false);
    }
    const back = await until(
      'in use again',
      async () => (await ready()).data.standby.state === 'in_use',
    );
    expect(await keywordCount()).toBe(5);
    console.log(`Read standby: in use again ${back} ms after replay resumed`);
  }, 30_000);

  it('a read failing on the standby: out of use at once, and no node named until a check reaches one', async () => {
    await reads.check();
    expect(reads.status().state).toBe('in_use');
    const primary = t.app.get(Sql);
    // What the read saw as it began: on the primary (its second run), the standby's state
    // just after the failure, before any check could run again.
    const seen: Array<{
      onPrimary: boolean;
      status: StandbyStatus;
      series: ReturnType<typeof metrics.standbyNode.get>;
    }> = [];
    const onPrimary = await reads.read(async (sql) => {
      seen.push({
        onPrimary: sql === primary,
        status: reads.status(),
        series: metrics.standbyNode.get(),
      });
      // On the standby: the connection is ended under the read (57P01), a failure of the
      // standby itself, as when it goes away mid-statement.
      if (sql !== primary) await sql.rows('SELECT pg_terminate_backend(pg_backend_pid())');
      return sql === primary;
    });
    expect(onPrimary).toBe(true);
    expect(seen.map((s) => s.onPrimary)).toEqual([false, true]);
    expect(seen[1].status).toEqual({ state: 'down', lag_ms: null, node: null });
    expect((await seen[1].series).values).toEqual([]);
    // A check finds it well again: in use, and named again. (The first check after the
    // termination may draw the pool's ended connection before the pool has dropped it, and
    // then rightly finds the standby down; the one after it gets a fresh connection.)
    await until('in use after the failed read', async () => {
      await reads.check();
      return reads.status().state === 'in_use';
    });
    expect(reads.status()).toEqual({
      state: 'in_use',
      lag_ms: 0,
      node: { address: '127.0.0.1/32', port: pg.standbyPort },
    });
    expect((await metrics.standbyNode.get()).values).toHaveLength(1);
  }, 30_000);

  it('down: reads go to the primary with no 5xx on the way, and come back when it returns', async () => {
    const statuses: number[] = [];
    let running = true;
    const loop = (async () => {
      while (running) {
        const res = await fetch(`${t.url}/api/v1/rank/keywords?project_id=${project}`, {
          headers: bearer(acc.key),
        });
        statuses.push(res.status);
        await res.arrayBuffer();
      }
    })();
    try {
      await sleep(300);
      await pg.stopStandby();
      const stoppedAt = Date.now();
      await until('down', async () => reads.status().state === 'down', 2000);
      console.log(`Read standby: down seen ${Date.now() - stoppedAt} ms after the stop`);
      expect((await ready()).data.standby.state).toBe('down');
      await sleep(1000);
      await pg.startStandby();
      const startedAt = Date.now();
      await until('in use again', async () => reads.status().state === 'in_use', 10_000);
      console.log(
        `Read standby: in use ${Date.now() - startedAt} ms after it accepted connections`,
      );
      await sleep(300);
    } finally {
      running = false;
      await loop;
    }
    expect(statuses.length).toBeGreaterThan(20);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect(await keywordCount()).toBe(5);
  }, 60_000);
});
