import { AdminClient, bearer, TestAccount } from '../helpers/fixtures';
import { Spawned, freePort, spawnDist, waitForHttp } from '../helpers/processes';
import { ChaosRedis, PgProxy, Sample, load, meterUsed, sleep, sqlQuery } from './chaos-helpers';

/**
 * Chaos (issue 13): two compiled API processes on their own redis-server and behind a
 * PostgreSQL TCP proxy; Redis and PostgreSQL are stopped and brought back under load, and
 * 1,000 concurrent calls are spread over both processes.
 *
 * While a dependency is down every failure must be 500 SERVER_ERROR with Retry-After and
 * fast (< 1 s); service must be back within 2 s of the dependency; the log gets one line
 * per state change, not a stack per request.
 */
const OUTAGE_MS = Number(process.env.CHAOS_OUTAGE_MS ?? 2500);
const FAST_MS = 1000;
const RECOVERY_MS = 2000;

describe('Chaos: dependency outages under load, exact meter and credits across two processes', () => {
  let redis: ChaosRedis;
  let proxy: PgProxy;
  const apis: Spawned[] = [];
  const bases: string[] = [];
  let admin: AdminClient;
  const databaseUrl = process.env.DATABASE_URL!;

  beforeAll(async () => {
    redis = await ChaosRedis.start();
    proxy = await PgProxy.start(databaseUrl);
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      apis.push(
        spawnDist('apps/api/src/main.js', {
          PORT: String(port),
          REDIS_URL: redis.url,
          DATABASE_URL: proxy.via(databaseUrl),
          LOG_LEVEL: 'info',
        }),
      );
      bases.push(`http://127.0.0.1:${port}`);
    }
    await Promise.all(bases.map((b) => waitForHttp(`${b}/health/ready`)));
    admin = new AdminClient(bases[0]);
  }, 60_000);

  afterAll(async () => {
    for (const p of apis) p.child.kill('SIGTERM');
    await Promise.all(apis.map((p) => p.exited));
    await redis?.down();
    await proxy?.cut();
  });

  const logs = () => apis.map((p) => p.stdout() + p.stderr());

  /** Every sample is a 200, or a fast 500 SERVER_ERROR with Retry-After. */
  function expectCleanFailures(samples: Sample[]): Sample[] {
    const failures = samples.filter((s) => s.status !== 200);
    for (const f of failures) {
      expect({ status: f.status, code: f.code, retryAfter: f.retryAfter }).toEqual({
        status: 500,
        code: 'SERVER_ERROR',
        retryAfter: expect.stringMatching(/^[1-9][0-9]?$/),
      });
      expect(f.end - f.start).toBeLessThan(FAST_MS);
    }
    return failures;
  }

  /**
   * Each process logged at most one "down" and one "back" line for the dependency (the
   * suite stops each dependency once), at least one process saw it, and no request's
   * failure was logged as an unhandled error. (The whole log is read: pino writes it
   * buffered, so a line can land after the moment it was logged.)
   */
  function expectOneLinePerStateChange(dependency: 'redis' | 'postgres'): void {
    const all = logs();
    for (const text of all) {
      const down = count(text, `Dependency down: ${dependency}`);
      expect(down).toBeLessThanOrEqual(1);
      expect(count(text, `Dependency back: ${dependency}`)).toBeLessThanOrEqual(down);
      expect(text).not.toContain('Unhandled error');
      expect(text).not.toContain('[ioredis] Unhandled error event');
    }
    expect(all.some((t) => t.includes(`Dependency down: ${dependency}`))).toBe(true);
  }

  async function outage(
    account: TestAccount,
    stop: () => Promise<void>,
    start: () => Promise<void>,
  ): Promise<{ samples: Sample[]; stoppedAt: number; backAt: number }> {
    const urls = bases.map((b) => `${b}/api/v1/usage`);
    const run = load(urls, bearer(account.key), 8);
    await sleep(1000);
    const stoppedAt = Date.now();
    await stop();
    await sleep(OUTAGE_MS);
    await start();
    const backAt = Date.now();
    await sleep(RECOVERY_MS + 1500);
    await run.stop();
    return { samples: run.samples, stoppedAt, backAt };
  }

  it('Redis stopped and restarted under load: fast SERVER_ERROR + Retry-After while down, back within 2 s, meter = served', async () => {
    const account = await admin.account('agency', {
      api_calls_per_month: 'unlimited',
      requests_per_minute: 1_000_000,
    });
    const { samples, stoppedAt, backAt } = await outage(
      account,
      () => redis.down(),
      () => redis.up(),
    );

    const failures = expectCleanFailures(samples);
    expect(failures.length).toBeGreaterThan(10); // the outage was seen
    // No failure before the stop, none after the recovery window.
    expect(failures.filter((f) => f.end < stoppedAt)).toEqual([]);
    expect(failures.filter((f) => f.start > backAt + RECOVERY_MS)).toEqual([]);
    expect(samples.filter((s) => s.start > backAt + RECOVERY_MS).length).toBeGreaterThan(10);

    // Every served call was counted once; no refused call was.
    const served = samples.filter((s) => s.status === 200).length;
    expect(await meterUsed(databaseUrl, account.id)).toBe(served);

    expectOneLinePerStateChange('redis');
  }, 60_000);

  it('PostgreSQL cut and restored under load: fast SERVER_ERROR + Retry-After while down, back within 2 s', async () => {
    const account = await admin.account('agency', {
      api_calls_per_month: 'unlimited',
      requests_per_minute: 1_000_000,
    });
    const { samples, stoppedAt, backAt } = await outage(
      account,
      () => proxy.cut(),
      () => proxy.restore(),
    );

    const failures = expectCleanFailures(samples);
    expect(failures.length).toBeGreaterThan(10);
    expect(failures.filter((f) => f.end < stoppedAt)).toEqual([]);
    expect(failures.filter((f) => f.start > backAt + RECOVERY_MS)).toEqual([]);
    expect(samples.filter((s) => s.start > backAt + RECOVERY_MS).length).toBeGreaterThan(10);

    // A meter statement cut after its commit but before its answer is counted and not
    // served: at most the requests in flight at the cut (8 loops).
    const served = samples.filter((s) => s.status === 200).length;
    const used = await meterUsed(databaseUrl, account.id);
    expect(used).toBeGreaterThanOrEqual(served);
    expect(used - served).toBeLessThanOrEqual(8);

    expectOneLinePerStateChange('postgres');
  }, 60_000);

  it('1,000 concurrent calls across both processes: the meter admits exactly the allowance', async () => {
    const allowance = 300;
    const account = await admin.account('pro', {
      api_calls_per_month: allowance,
      requests_per_minute: 1_000_000,
    });
    const results = await Promise.all(
      Array.from({ length: 1000 }, (_, i) =>
        fetch(`${bases[i % 2]}/api/v1/usage`, { headers: bearer(account.key) }).then(async (r) => ({
          status: r.status,
          body: (await r.json()) as { error?: { code: string } },
        })),
      ),
    );
    expect(tally(results)).toEqual({ 200: allowance, 429: 1000 - allowance });
    const refused = results.filter((r) => r.status !== 200);
    expect(refused).toHaveLength(1000 - allowance);
    expect(refused.every((r) => r.status === 429 && r.body.error?.code === 'RATE_LIMITED')).toBe(
      true,
    );
    expect(await meterUsed(databaseUrl, account.id)).toBe(allowance);
  }, 60_000);

  it('1,000 concurrent paid calls across both processes: credits exact, never negative', async () => {
    const credits = 40;
    const account = await admin.account('agency', {
      api_calls_per_month: 'unlimited',
      requests_per_minute: 1_000_000,
      backlinks_per_month: 0,
    });
    await admin.credits(account.id, credits);
    const results = await Promise.all(
      Array.from({ length: 1000 }, (_, i) =>
        fetch(`${bases[i % 2]}/api/v1/backlinks?domain=chaos${i}.example`, {
          headers: bearer(account.key),
        }).then(async (r) => ({
          status: r.status,
          body: (await r.json()) as { meta?: { charged?: string }; error?: { code: string } },
        })),
      ),
    );
    expect(tally(results)).toEqual({ 200: credits, 402: 1000 - credits });
    const ok = results.filter((r) => r.status === 200);
    expect(ok.every((r) => r.body.meta?.charged === 'credit')).toBe(true);
    expect(
      results.filter((r) => r.status === 402 && r.body.error?.code === 'PAYMENT_REQUIRED'),
    ).toHaveLength(1000 - credits);
    const [acct] = await sqlQuery<{ credits: number }>(
      databaseUrl,
      'SELECT credits FROM accounts WHERE id = $1',
      [account.id],
    );
    expect(acct.credits).toBe(0);
    const ledger = await sqlQuery<{ delta: number; balance_after: number }>(
      databaseUrl,
      `SELECT delta, balance_after FROM credit_ledger
       WHERE account_id = $1 AND reason NOT LIKE 'admin:%' ORDER BY id`,
      [account.id],
    );
    expect(ledger).toHaveLength(credits);
    expect(ledger.every((r) => r.delta === -1 && r.balance_after >= 0)).toBe(true);
  }, 60_000);

  it('after shutdown (logs flushed): every "down" line has its "back" line, with the count of failed requests', async () => {
    for (const p of apis) p.child.kill('SIGTERM');
    await Promise.all(apis.map((p) => p.exited));
    const lines = apis
      .flatMap((p) => p.stdout().split('\n'))
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { msg?: string; failed_requests?: number; dependency?: string });
    for (const dependency of ['redis', 'postgres']) {
      const down = lines.filter((l) => l.msg?.startsWith(`Dependency down: ${dependency}`));
      const back = lines.filter((l) => l.msg?.startsWith(`Dependency back: ${dependency}`));
      expect(down.length).toBeGreaterThanOrEqual(1);
      expect(back.length).toBe(down.length);
      expect(back.reduce((n, l) => n + (l.failed_requests ?? 0), 0)).toBeGreaterThan(10);
    }
  }, 30_000);
});

function tally(results: Array<{ status: number; body: unknown }>): Record<number, number> {
  const t: Record<number, number> = {};
  for (const r of results) t[r.status] = (t[r.status] ?? 0) + 1;
  if (Object.keys(t).some((s) => Number(s) >= 500))
    console.log(
      results
        .filter((r) => r.status >= 500)
        .slice(0, 3)
        .map((r) => r.body),
    );
  return t;
}

function count(text: string, needle: string): number {
  return text.split(needle).length - 1;
}
