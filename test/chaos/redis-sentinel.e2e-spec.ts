import { AdminClient, bearer } from '../helpers/fixtures';
import { Spawned, freePort, spawnDist, waitForHttp } from '../helpers/processes';
import { SentinelGroup } from '../helpers/redis-sentinel';
import { FixtureSite, startFixtureSite } from '../site-audit/fixture-site';
import { waitForJob } from '../site-audit/site-audit-helpers';
import { load, meterUsed, sleep } from './chaos-helpers';

/**
 * Redis through Sentinel (issue 22): a compiled API process and a worker connect through three
 * Sentinels (REDIS_URL points nowhere); the master is SIGKILLed under load and a replica is
 * promoted. Every refusal meanwhile is the clean 500 with Retry-After, service is whole again
 * within a few seconds of the promotion without a restart, the meter equals the served calls,
 * and on the new master the per-minute limit, key-cache invalidation (pub/sub) and the
 * worker's blocking queue connection all work.
 */
const WHOLE_WITHIN_MS = 5_000;

describe('Redis through Sentinel: a master failover under load', () => {
  let group: SentinelGroup;
  let site: FixtureSite;
  let api: Spawned;
  let worker: Spawned;
  let base = '';
  let admin: AdminClient;
  const databaseUrl = process.env.DATABASE_URL!;

  beforeAll(async () => {
    group = await SentinelGroup.start();
    site = await startFixtureSite({ articles: 2 });
    const env = {
      REDIS_SENTINELS: group.sentinels,
      REDIS_SENTINEL_MASTER: group.masterName,
      REDIS_URL: 'redis://127.0.0.1:1',
      REDIS_PREFIX: `${process.env.REDIS_PREFIX}:sentinel`,
      LOG_LEVEL: 'info',
      AUDIT_ALLOW_PRIVATE_NETWORKS: 'true',
      AUDIT_POLITENESS_DELAY_MS: '0',
    };
    const port = await freePort();
    api = spawnDist('apps/api/src/main.js', { ...env, PORT: String(port) });
    worker = spawnDist('apps/worker/src/main.js', env);
    base = `http://127.0.0.1:${port}`;
    await waitForHttp(`${base}/health/ready`, 60_000);
    admin = new AdminClient(base);
  }, 90_000);

  afterAll(async () => {
    for (const p of [api, worker]) if (p && p.child.exitCode === null) p.child.kill('SIGTERM');
    await Promise.race([Promise.all([api?.exited, worker?.exited]), sleep(10_000)]);
    for (const p of [api, worker]) if (p && p.child.exitCode === null) p.child.kill('SIGKILL');
    await site?.close();
    await group?.stop();
  }, 30_000);

  it('follows the promotion: clean refusals during it, whole again within seconds, meter = served; limits, invalidation and the queue work on the new master', async () => {
    const account = await admin.account('agency', {
      api_calls_per_month: 'unlimited',
      requests_per_minute: 1_000_000,
    });
    const run = load([`${base}/api/v1/usage`], bearer(account.key), 6);
    await sleep(1_500);
    const killedAt = Date.now();
    const { failoverMs } = await group.killMaster();
    const promotedAt = Date.now();
    await sleep(WHOLE_WITHIN_MS + 2_000);
    await run.stop();

    const failures = run.samples.filter((s) => s.status !== 200);
    for (const f of failures) {
      expect({ status: f.status, code: f.code, retryAfter: f.retryAfter }).toEqual({
        status: 500,
        code: 'SERVER_ERROR',
        retryAfter: expect.stringMatching(/^[1-9][0-9]?$/),
      });
    }
    expect(failures.filter((f) => f.end < killedAt)).toEqual([]);
    const late = failures.filter((f) => f.start > promotedAt + WHOLE_WITHIN_MS);
    expect(late).toEqual([]);
    const lastFailure = Math.max(killedAt, ...failures.map((f) => f.end));
    console.log(
      `Sentinel failover: promotion after ${failoverMs} ms; ${failures.length} refused of ` +
        `${run.samples.length}; whole again ${lastFailure - killedAt} ms after the kill`,
    );
    const served = run.samples.filter((s) => s.status === 200).length;
    expect(served).toBeGreaterThan(50);
    expect(await meterUsed(databaseUrl, account.id)).toBe(served);

    // The per-minute limit on the new master.
    const limited = await admin.account('pro', {
      api_calls_per_month: 'unlimited',
      requests_per_minute: 2,
    });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      statuses.push((await fetch(`${base}/api/v1/usage`, { headers: bearer(limited.key) })).status);
    }
    expect(statuses).toEqual([200, 200, 429]);

    // Key-cache invalidation over the re-established subscription: refused within a second.
    const other = await admin.account('pro', { api_calls_per_month: 'unlimited' });
    expect((await fetch(`${base}/api/v1/usage`, { headers: bearer(other.key) })).status).toBe(200);
    expect((await admin.delete(`/api-keys/${other.keyId}`)).status).toBe(200);
    const revokedAt = Date.now();
    let refusedAfter = -1;
    while (Date.now() - revokedAt < 3_000) {
      const s = (await fetch(`${base}/api/v1/usage`, { headers: bearer(other.key) })).status;
      if (s === 401) {
        refusedAfter = Date.now() - revokedAt;
        break;
      }
      await sleep(20);
    }
    expect(refusedAfter).toBeGreaterThanOrEqual(0);
    expect(refusedAfter).toBeLessThan(1_000);

    // A site audit queued after the failover is taken by the worker's blocking connection.
    const auditor = await admin.account('pro', {
      api_calls_per_month: 'unlimited',
      requests_per_minute: 100_000,
    });
    const started = await fetch(`${base}/api/v1/site-audit`, {
      method: 'POST',
      headers: { ...bearer(auditor.key), 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${site.origin}/`, max_pages: 3, depth: 1 }),
    });
    expect(started.status).toBe(202);
    const { job_id: jobId } = (await started.json()) as { job_id: string };
    const { final } = await waitForJob(base, auditor.key, jobId, {
      timeoutMs: 45_000,
      intervalMs: 200,
    });
    expect(final.status).toBe('complete');
    expect(api.stdout() + api.stderr()).not.toContain('Unhandled error');
  }, 120_000);
});
