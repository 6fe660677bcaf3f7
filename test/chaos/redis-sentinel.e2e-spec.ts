import { AdminClient, bearer } from '../helpers/fixtures';
import { Spawned, freePort, spawnDist, waitForHttp } from '../helpers/processes';
import { Failover, SentinelGroup } from '../helpers/redis-sentinel';
import { FixtureSite, startFixtureSite } from '../site-audit/fixture-site';
import { waitForJob } from '../site-audit/site-audit-helpers';
import { Sample, load, meterUsed, sleep } from './chaos-helpers';

/**
 * Redis through Sentinel (issue 22): a compiled API process and a worker connect through three
 * Sentinels (REDIS_URL points nowhere). The master fails under load twice: SIGKILLed (a crash:
 * connections reset at once), then SIGSTOPped (a partition: connections stay open, nothing
 * answers, so only the Sentinels' +switch-master moves the idle subscriber and blocking
 * connections). Each time a replica is promoted, every refusal meanwhile is the clean 500
 * with Retry-After and none waits longer than the command timeout, service is whole again
 * within a few seconds of the promotion without a restart, the meter equals the served calls,
 * and on the new master the per-minute limit, key-cache invalidation (pub/sub) and the
 * worker's blocking queue connection all work.
 */
const COMMAND_TIMEOUT_MS = 2_000;
/** From the promotion to the last refusal. */
const WHOLE_WITHIN_MS = 5_000;
/** From the failure to the last refusal (the bound). */
const WHOLE_AFTER_FAILURE_MS = 15_000;
const AUDITOR = { api_calls_per_month: 'unlimited', requests_per_minute: 100_000 };

describe('Redis through Sentinel: master failovers under load', () => {
  let group: SentinelGroup;
  let site: FixtureSite;
  /** Slow answers (2 s a page): a crawl of it is still running when the master dies. */
  let slowSite: FixtureSite;
  let api: Spawned;
  let worker: Spawned;
  let base = '';
  let admin: AdminClient;
  const databaseUrl = process.env.DATABASE_URL!;

  beforeAll(async () => {
    group = await SentinelGroup.start();
    site = await startFixtureSite({ articles: 2 });
    slowSite = await startFixtureSite({ articles: 8, delayMs: 2_000 });
    const env = {
      REDIS_SENTINELS: group.sentinels,
      REDIS_SENTINEL_MASTER: group.masterName,
      REDIS_URL: 'redis://127.0.0.1:1', // ignored with REDIS_SENTINELS
      REDIS_PREFIX: `${process.env.REDIS_PREFIX}:sentinel`,
      REDIS_COMMAND_TIMEOUT_MS: String(COMMAND_TIMEOUT_MS),
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
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all([api?.exited, worker?.exited]),
      new Promise((r) => (timer = setTimeout(r, 10_000))),
    ]);
    clearTimeout(timer);
    for (const p of [api, worker]) if (p && p.child.exitCode === null) p.child.kill('SIGKILL');
    await site?.close();
    await slowSite?.close();
    await group?.stop();
  }, 30_000);

  /**
   * Runs `strike` (a failover) under 6 loops of GET /usage and checks the window: clean
   * refusals only, none slower than the command timeout, none after the bound; the meter
   * counts exactly the 200s.
   */
  async function underLoad(
    name: string,
    strike: () => Promise<Failover>,
    wholeWithinMs = WHOLE_WITHIN_MS,
  ): Promise<Failover> {
    const account = await admin.account('agency', {
      api_calls_per_month: 'unlimited',
      requests_per_minute: 1_000_000,
    });
    const run = load([`${base}/api/v1/usage`], bearer(account.key), 6);
    await sleep(1_500);
    const failover = await strike();
    const { struckAt } = failover;
    const promotedAt = Date.now();
    await sleep(wholeWithinMs + 2_000);
    await run.stop();

    const failures = run.samples.filter((s) => s.status !== 200);
    const slowest = Math.max(...run.samples.map((s: Sample) => s.end - s.start));
    const lastFailure = Math.max(struckAt, ...failures.map((f) => f.end));
    console.log(
      `Sentinel failover (${name}): promotion after ${failover.failoverMs} ms; ` +
        `${failures.length} refused of ${run.samples.length}; whole again ` +
        `${lastFailure - struckAt} ms after the failure; slowest answer ${slowest} ms`,
    );
    for (const f of failures) {
      expect({ status: f.status, code: f.code, retryAfter: f.retryAfter }).toEqual({
        status: 500,
        code: 'SERVER_ERROR',
        retryAfter: expect.stringMatching(/^[1-9][0-9]?$/),
      });
    }
    expect(failures.filter((f) => f.end < struckAt)).toEqual([]);
    expect(failures.filter((f) => f.start > promotedAt + wholeWithinMs)).toEqual([]);
    // Never a hang: a command to a silent master fails after the command timeout; one issued
    // while an auto-pipelined batch is still waiting on it is sent when that batch ends, so a
    // request waits at most about twice the timeout.
    expect(slowest).toBeLessThan(2 * COMMAND_TIMEOUT_MS + 1_000);
    expect(lastFailure - struckAt).toBeLessThan(WHOLE_AFTER_FAILURE_MS);
    const served = run.samples.filter((s) => s.status === 200).length;
    expect(served).toBeGreaterThan(50);
    expect(await meterUsed(databaseUrl, account.id)).toBe(served);
    return failover;
  }

  /** A key revoked now is refused by the API within a second (invalidation over pub/sub). */
  async function revocationRefusedWithinASecond(): Promise<void> {
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
  }

  async function startAudit(
    key: string,
    origin: string,
    maxPages: number,
    depth: number,
  ): Promise<string> {
    const started = await fetch(`${base}/api/v1/site-audit`, {
      method: 'POST',
      headers: { ...bearer(key), 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${origin}/`, max_pages: maxPages, depth }),
    });
    expect(started.status).toBe(202);
    return ((await started.json()) as { job_id: string }).job_id;
  }

  async function jobStatus(key: string, jobId: string): Promise<string> {
    const res = await fetch(`${base}/api/v1/jobs/${jobId}`, { headers: bearer(key) });
    return ((await res.json()) as { data: { status: string } }).data.status;
  }

  /** A site audit queued now is taken by the worker's blocking connection and completes. */
  async function auditCompletes(): Promise<void> {
    const auditor = await admin.account('pro', AUDITOR);
    const jobId = await startAudit(auditor.key, site.origin, 3, 1);
    const { final } = await waitForJob(base, auditor.key, jobId, {
      timeoutMs: 30_000,
      intervalMs: 200,
    });
    expect(final.status).toBe('complete');
  }

  it('a crashed master (SIGKILL): clean refusals, whole again within seconds, meter = served; limits, invalidation and the queue work on the new master', async () => {
    // A crawl in flight across the failover: its progress and result go to PostgreSQL, so it
    // ends complete and is charged once whatever BullMQ's entry went through.
    const crawler = await admin.account('pro', AUDITOR);
    const inFlight = await startAudit(crawler.key, slowSite.origin, 9, 2);
    const deadline = Date.now() + 5_000;
    while ((await jobStatus(crawler.key, inFlight)) !== 'running' && Date.now() < deadline)
      await sleep(50);

    await underLoad('SIGKILL', async () => {
      expect(await jobStatus(crawler.key, inFlight)).toBe('running');
      return group.killMaster();
    });

    // The per-minute limit counts on the new master.
    const limited = await admin.account('pro', {
      api_calls_per_month: 'unlimited',
      requests_per_minute: 2,
    });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      statuses.push((await fetch(`${base}/api/v1/usage`, { headers: bearer(limited.key) })).status);
    }
    expect(statuses).toEqual([200, 200, 429]);

    await revocationRefusedWithinASecond();
    await auditCompletes();

    const { final } = await waitForJob(base, crawler.key, inFlight, {
      timeoutMs: 30_000,
      intervalMs: 200,
    });
    expect(final).toMatchObject({ status: 'complete', data: { pages_crawled: 9 } });
    const account = (await admin.get(`/accounts/${crawler.id}`)).body.data;
    expect(account.usage.site_audit_crawls_per_month).toBe(1);
  }, 60_000);

  it('a partitioned master (SIGSTOP): the Sentinels’ switch moves every connection, none stays on the old master', async () => {
    let frozen: (Failover & { resume: () => Promise<void> }) | undefined;
    try {
      await underLoad('SIGSTOP', async () => (frozen = await group.freezeMaster()));
      // Idle connections (subscribers, the worker's blocking BZPOPMIN) saw no error from the
      // silent master: only failoverDetector can have moved them.
      await revocationRefusedWithinASecond();
      await auditCompletes();
    } finally {
      await frozen?.resume();
    }
    // The old master answers again (until the Sentinels demote it): nothing of ours is on it.
    let left: string[] = [];
    const deadline = Date.now() + 3_000;
    do {
      await sleep(100);
      left = await group.applicationClients(frozen!.oldMasterPort);
    } while (left.length > 0 && Date.now() < deadline);
    expect(left).toEqual([]);
    expect(api.stdout() + api.stderr()).not.toContain('Unhandled error');
    expect(worker.child.exitCode).toBeNull();
  }, 60_000);

  it('a crashed master while the first Sentinel listed is silent (SIGSTOP): reconnections skip it after the command timeout', async () => {
    const resumeSentinel = group.freezeSentinel(0);
    try {
      // Each reconnection round waits up to the command timeout on the silent Sentinel.
      await underLoad('SIGKILL, first Sentinel silent', () => group.killMaster(), 10_000);
      await revocationRefusedWithinASecond();
      await auditCompletes();
    } finally {
      resumeSentinel();
    }
  }, 60_000);
});
