import { Client } from 'pg';
import { PgProxy, sleep } from '../chaos/chaos-helpers';
import { AdminClient, bearer } from '../helpers/fixtures';
import { createOwnDatabase } from '../helpers/own-database';
import { Spawned, freePort, spawnDist, waitForHttp } from '../helpers/processes';
import { createTestApp, TestApp } from '../helpers/test-app';

/**
 * Issue 35, part 3: a POST /site-audit cut between taking the crawl unit and inserting the
 * job row keeps nothing. The unit, the pages and the job row commit in one transaction
 * (JobLifecycleService.createQueued), so a request cut before its commit (the API killed,
 * the connection to PostgreSQL dropped as by a restart) leaves the month's crawl count as it
 * was — also for a burst of an account's audits waiting on its row.
 *
 * The requests are parked at the job insert by a SHARE lock on `jobs` held by the test (so
 * each has taken its crawl unit, or waits on the account row behind the one that has), then
 * cut. A database of the suite's own: the lock must not stall other suites.
 */
describe('POST /site-audit cut before the job row: no crawl unit is kept', () => {
  let own: { url: string; drop: () => Promise<void> };
  let sql: Client;

  beforeAll(async () => {
    own = await createOwnDatabase('crawlcut');
    sql = new Client({ connectionString: own.url });
    await sql.connect();
  });
  afterAll(async () => {
    await sql?.end();
    await own?.drop();
  });

  const crawlsUsed = async (accountId: number): Promise<number> => {
    const r = await sql.query<{ used: number }>(
      `SELECT COALESCE(sum(used), 0)::int AS used FROM feature_usage
       WHERE account_id = $1 AND feature = 'site_audit_crawls'`,
      [accountId],
    );
    return r.rows[0].used;
  };
  const jobRows = async (accountId: number): Promise<number> => {
    const r = await sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM jobs WHERE account_id = $1`,
      [accountId],
    );
    return r.rows[0].n;
  };
  /** Holds a SHARE lock on `jobs` (the job insert waits) until `release()`. */
  const holdJobInserts = async () => {
    const c = new Client({ connectionString: own.url });
    await c.connect();
    await c.query('BEGIN');
    await c.query('LOCK TABLE jobs IN SHARE MODE');
    return {
      release: async () => {
        await c.query('ROLLBACK').catch(() => undefined);
        await c.end();
      },
    };
  };
  /** Waits until `n` backends wait on a lock: one at the job insert, the rest on the account row. */
  const parked = async (n: number) => {
    const started = Date.now();
    for (;;) {
      const r = await sql.query<{ inserts: number; total: number }>(
        `SELECT count(*) FILTER (WHERE query ILIKE 'INSERT INTO "jobs"%')::int AS inserts,
                count(*)::int AS total
         FROM pg_stat_activity
         WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
      );
      if (r.rows[0].inserts === 1 && r.rows[0].total === n) return;
      if (Date.now() - started > 15_000)
        throw new Error(`not parked: ${JSON.stringify(r.rows[0])} of ${n}`);
      await sleep(50);
    }
  };
  /** Waits until no backend of the database is left mid-transaction (the cut ones ended). */
  const settled = async () => {
    const started = Date.now();
    for (;;) {
      const r = await sql.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity
         WHERE datname = current_database() AND pid <> pg_backend_pid()
           AND (state LIKE 'idle in transaction%' OR wait_event_type = 'Lock' OR state = 'active')`,
      );
      if (r.rows[0].n === 0) return;
      if (Date.now() - started > 15_000) throw new Error('cut transactions still open');
      await sleep(50);
    }
  };
  const audit = (base: string, key: string) =>
    fetch(`${base}/api/v1/site-audit`, {
      method: 'POST',
      headers: { ...bearer(key), 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'http://127.0.0.1:9/', max_pages: 1 }),
    });

  it('the API killed (SIGKILL) with a burst of 4 audits parked: the count stays 0, no job row; 4 audits then start', async () => {
    const spawnApi = async (): Promise<{ api: Spawned; base: string }> => {
      const port = await freePort();
      const api = spawnDist('apps/api/src/main.js', {
        PORT: String(port),
        DATABASE_URL: own.url,
        REDIS_PREFIX: `${process.env.REDIS_PREFIX}:crawlcut`,
        LOG_LEVEL: 'silent',
        AUDIT_ALLOW_PRIVATE_NETWORKS: 'true',
      });
      const base = `http://127.0.0.1:${port}`;
      await waitForHttp(`${base}/health/live`);
      return { api, base };
    };
    let { api, base } = await spawnApi();
    let lock: { release: () => Promise<void> } | null = null;
    try {
      const admin = new AdminClient(base);
      const acc = await admin.account('pro', { site_audit_crawls_per_month: 4 });
      lock = await holdJobInserts();
      const inFlight = Array.from({ length: 4 }, () =>
        audit(base, acc.key).then(
          (r) => r.status,
          () => 'cut',
        ),
      );
      await parked(4);
      api.child.kill('SIGKILL');
      await api.exited;
      expect(await Promise.all(inFlight)).toEqual(['cut', 'cut', 'cut', 'cut']);
      await lock.release();
      lock = null;
      await settled();
      expect(await crawlsUsed(acc.id)).toBe(0);
      expect(await jobRows(acc.id)).toBe(0);

      ({ api, base } = await spawnApi());
      const statuses = await Promise.all(
        Array.from({ length: 4 }, () => audit(base, acc.key).then((r) => r.status)),
      );
      expect(statuses).toEqual([202, 202, 202, 202]);
      expect((await audit(base, acc.key)).status).toBe(429);
      expect(await crawlsUsed(acc.id)).toBe(4);
      expect(await jobRows(acc.id)).toBe(4);
    } finally {
      await lock?.release();
      if (api.child.exitCode === null && api.child.signalCode === null) {
        api.child.kill('SIGTERM');
        await api.exited;
      }
    }
  }, 90_000);

  it('the connection to PostgreSQL dropped mid-request (a restart, as the API sees it): 500 safe to retry, nothing kept; the retry starts', async () => {
    const proxy = await PgProxy.start(own.url);
    let t: TestApp | null = null;
    let lock: { release: () => Promise<void> } | null = null;
    try {
      t = await createTestApp({
        env: {
          DATABASE_URL: proxy.via(own.url),
          REDIS_PREFIX: `${process.env.REDIS_PREFIX}:crawlcut`,
          AUDIT_ALLOW_PRIVATE_NETWORKS: 'true',
        },
      });
      const admin = new AdminClient(t.url);
      const acc = await admin.account('pro', { site_audit_crawls_per_month: 3 });
      lock = await holdJobInserts();
      const inFlight = Array.from({ length: 3 }, () => audit(t!.url, acc.key));
      await parked(3);
      await proxy.cut();
      const answers = await Promise.all(inFlight);
      for (const res of answers) {
        expect(res.status).toBe(500);
        const body = (await res.json()) as { error: { code: string } };
        expect(body.error.code).toBe('SERVER_ERROR');
        expect(res.headers.get('retry-after')).not.toBeNull();
      }
      await lock.release();
      lock = null;
      await settled();
      expect(await crawlsUsed(acc.id)).toBe(0);
      expect(await jobRows(acc.id)).toBe(0);

      await proxy.restore();
      // The retries: all three start (the pool reconnects through the restored proxy).
      const started = Date.now();
      let accepted = 0;
      while (accepted < 3 && Date.now() - started < 20_000) {
        const res = await audit(t.url, acc.key);
        if (res.status === 202) accepted++;
        else await sleep(200);
      }
      expect(accepted).toBe(3);
      expect((await audit(t.url, acc.key)).status).toBe(429);
      expect(await crawlsUsed(acc.id)).toBe(3);
      expect(await jobRows(acc.id)).toBe(3);
    } finally {
      await lock?.release();
      await t?.close();
      await proxy.cut();
    }
  }, 90_000);
});
