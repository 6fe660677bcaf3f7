import { Queue } from 'bullmq';
import { SITE_AUDIT_QUEUE } from '@app/site-audit';
import { FakeDataForSeo } from '../fixtures/fake-dataforseo';
import { AdminClient, TestAccount, bearer } from '../helpers/fixtures';
import { Spawned, freePort, spawnDist, waitForHttp } from '../helpers/processes';
import { SmallRedis } from '../helpers/small-redis';
import { FixtureSite, startFixtureSite } from '../site-audit/fixture-site';
import { meterUsed, sleep, sqlQuery } from './chaos-helpers';

/**
 * Issue 35: what a full Redis does to the service. A redis-server of the test's own on a free
 * port with maxmemory 2mb; another tenant fills it.
 *
 * - With `noeviction` (what production requires): a write Redis refuses becomes 500
 *   SERVER_ERROR with Retry-After (one log line, no stack per request); the per-minute limit
 *   fails closed (never an admission past it, the meter counts nothing refused); POST
 *   /site-audit reserves nothing; a job queued before is kept and runs once memory is freed.
 * - The figures, before (allkeys-lru) and after (noeviction), under the same pressure: calls
 *   admitted past the per-minute limit, duplicate paid research fetches, lost audits
 *   (printed; docs/reliability.md, "Redis memory policy").
 */
const DATABASE_URL = () => process.env.DATABASE_URL!;
const ADMIN = () => process.env.ADMIN_TOKEN!;

interface Answer {
  status: number;
  code?: string;
  retryAfter: string | null;
  body: Record<string, unknown>;
}

async function call(
  base: string,
  path: string,
  key: string,
  init: { method?: string; body?: unknown } = {},
): Promise<Answer> {
  const res = await fetch(`${base}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      ...bearer(key),
      ...(init.body ? { 'Content-Type': 'application/json' } : {}),
    },
    body: init.body ? JSON.stringify(init.body) : undefined,
    signal: AbortSignal.timeout(20_000),
  });
  const body = (await res.json()) as Record<string, unknown>;
  return {
    status: res.status,
    code: (body.error as { code?: string } | undefined)?.code,
    retryAfter: res.headers.get('retry-after'),
    body,
  };
}

/** Every answer is a clean refusal: 500 SERVER_ERROR with a Retry-After of a few seconds. */
function expectCleanServerErrors(answers: Answer[]): void {
  for (const a of answers) {
    expect({ status: a.status, code: a.code, retryAfter: a.retryAfter }).toEqual({
      status: 500,
      code: 'SERVER_ERROR',
      retryAfter: expect.stringMatching(/^[1-9][0-9]?$/),
    });
  }
}

async function startApi(
  redis: SmallRedis,
  env: Record<string, string> = {},
): Promise<{ proc: Spawned; base: string }> {
  const port = await freePort();
  const proc = spawnDist('apps/api/src/main.js', {
    PORT: String(port),
    REDIS_URL: redis.url,
    LOG_LEVEL: 'info',
    AUDIT_ALLOW_PRIVATE_NETWORKS: 'true',
    ...env,
  });
  const base = `http://127.0.0.1:${port}`;
  await waitForHttp(`${base}/health/ready`, 30_000);
  return { proc, base };
}

async function stopProc(p: Spawned | undefined): Promise<void> {
  if (!p) return;
  if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGTERM');
  await p.exited;
}

function countLines(text: string, needle: string): number {
  return text.split('\n').filter((l) => l.includes(needle)).length;
}

describe('Redis full with noeviction: clean 500s with Retry-After, limits fail closed, no lost job (issue 35)', () => {
  let redis: SmallRedis;
  let api: Spawned;
  let worker: Spawned | undefined;
  let base: string;
  let site: FixtureSite;
  let queue: Queue;

  beforeAll(async () => {
    redis = await SmallRedis.start({ policy: 'noeviction' });
    site = await startFixtureSite({ articles: 2 });
    ({ proc: api, base } = await startApi(redis));
    queue = new Queue(SITE_AUDIT_QUEUE, {
      connection: { url: redis.url, maxRetriesPerRequest: null },
      prefix: process.env.REDIS_PREFIX,
    });
  }, 60_000);

  afterAll(async () => {
    await queue?.close();
    await stopProc(worker);
    await stopProc(api);
    await site?.close();
    await redis?.stop();
  });

  it('keyed requests, research and POST /site-audit: 500 + Retry-After; nothing admitted past the limit or counted; the queued job survives and runs', async () => {
    const admin = new AdminClient(base);
    const a: TestAccount = await admin.account('pro', {
      api_calls_per_month: 'unlimited',
      requests_per_minute: 5,
      site_audit_crawls_per_month: 50,
    });
    const b: TestAccount = await admin.account('pro', {
      api_calls_per_month: 'unlimited',
      requests_per_minute: 3,
    });

    // Before Redis is full: A uses 2 of its 5 calls a minute on /usage and queues one audit
    // (no worker runs yet); B uses all 3 of its calls.
    for (let i = 0; i < 2; i++) expect((await call(base, '/api/v1/usage', a.key)).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await call(base, '/api/v1/usage', b.key)).status).toBe(200);
    const queued = await call(base, '/api/v1/site-audit', a.key, {
      method: 'POST',
      body: { url: `${site.origin}/`, max_pages: 2 },
    });
    expect(queued.status).toBe(202);
    const jobId = String(queued.body.job_id);

    expect(await redis.fill()).toBe(true); // another tenant filled the 2 MB

    // A, under its limit: every call needs a write (the per-minute counter): refused cleanly.
    const refused: Answer[] = [];
    for (let i = 0; i < 10; i++) refused.push(await call(base, '/api/v1/usage', a.key));
    refused.push(await call(base, '/api/v1/backlinks?domain=example.com', a.key));
    refused.push(
      await call(base, '/api/v1/keyword-research', a.key, {
        method: 'POST',
        body: { keyword: 'running shoes' },
      }),
    );
    const audit = await call(base, '/api/v1/site-audit', a.key, {
      method: 'POST',
      body: { url: `${site.origin}/`, max_pages: 2 },
    });
    refused.push(audit);
    expectCleanServerErrors(refused);

    // B, already at its limit: still 429 (reading the counter needs no memory), never admitted.
    const over = await call(base, '/api/v1/usage', b.key);
    expect(over.status).toBe(429);
    expect(over.code).toBe('RATE_LIMITED');

    // Nothing refused was counted or reserved: meter = the calls served before (2 + the audit).
    expect(await meterUsed(DATABASE_URL(), a.id)).toBe(3);
    expect(await meterUsed(DATABASE_URL(), b.id)).toBe(3);
    const jobs = await sqlQuery<{ job_id: string; status: string }>(
      DATABASE_URL(),
      'SELECT id AS job_id, status FROM jobs WHERE account_id = $1',
      [a.id],
    );
    expect(jobs).toEqual([{ job_id: jobId, status: 'queued' }]);
    const usage = await admin.get(`/accounts/${a.id}`);
    expect(usage.body.data.usage.site_audit_crawls_per_month).toBe(1);
    // The audit queued before is still in the queue: noeviction drops nothing.
    expect(await queue.getJobState(jobId)).toBe('waiting');

    // Readiness: Redis answers (reads work), the policy is the safe one.
    const ready = await fetch(`${base}/health/ready`);
    expect(ready.status).toBe(200);
    expect(
      ((await ready.json()) as { data: { redis_memory_policy: unknown } }).data.redis_memory_policy,
    ).toMatchObject({ policy: 'noeviction', ok: true });
    const metrics = await (
      await fetch(`${base}/metrics`, { headers: { Authorization: `Bearer ${ADMIN()}` } })
    ).text();
    const oom = Number(/^redis_oom_refusals_total (\d+)$/m.exec(metrics)?.[1]);
    expect(oom).toBeGreaterThanOrEqual(refused.length);

    // Memory freed: served again, and the per-minute limit resumes where it was (A had 2 of 5).
    await redis.free();
    const after: number[] = [];
    for (let i = 0; i < 5; i++) after.push((await call(base, '/api/v1/usage', a.key)).status);
    expect(after).toEqual([200, 200, 200, 429, 429]);
    expect(await meterUsed(DATABASE_URL(), a.id)).toBe(6);

    // No lost job: a worker started now takes the audit queued before Redis filled up.
    worker = spawnDist('apps/worker/src/main.js', {
      REDIS_URL: redis.url,
      LOG_LEVEL: 'info',
      AUDIT_ALLOW_PRIVATE_NETWORKS: 'true',
      AUDIT_POLITENESS_DELAY_MS: '0',
      // Its rank-collection schedulers are upserted beside the audit queue, never before it.
      RANK_COLLECTION_ENABLED: 'true',
    });
    const deadline = Date.now() + 30_000;
    let status = 'queued';
    while (Date.now() < deadline && status !== 'complete' && status !== 'failed') {
      await sleep(200);
      const [row] = await sqlQuery<{ status: string }>(
        DATABASE_URL(),
        'SELECT status FROM jobs WHERE id = $1',
        [jobId],
      );
      status = row.status;
    }
    expect(status).toBe('complete');

    // One log line for the refusals, no stack per request.
    await stopProc(api);
    const log = api.stdout() + api.stderr();
    expect(countLines(log, 'Redis refuses writes: maxmemory reached')).toBe(1);
    expect(log).not.toContain('Unhandled error');
    expect(log).not.toContain('Could not enqueue');
  }, 90_000);
});

/** One run of the same pressure on one policy; the figures of docs/reliability.md. */
interface PressureFigures {
  policy: string;
  perMinute: { limit: number; sent: number; served: number; rateLimited: number; refused: number };
  research: { sent: number; fetches: number; conflicts: number; refused: number };
  audits: { sent: number; accepted: number; lost: number; refused: number };
  unclean: Answer[];
}

describe('Redis memory policy under pressure: allkeys-lru (before) vs noeviction (after) (issue 35)', () => {
  const fake = new FakeDataForSeo();
  const figures: PressureFigures[] = [];

  beforeAll(async () => {
    await fake.start();
    fake.slowMs = 2500;
  });
  afterAll(async () => {
    await fake.close();
    // The table of docs/reliability.md ("Redis memory policy").
    console.log(
      [
        '| maxmemory-policy | per-minute limit 20: served of 120 (past the limit) | identical paid research: upstream fetches of 8 | site audits accepted / lost |',
        ...figures.map(
          (f) =>
            `| ${f.policy} | ${f.perMinute.served} (${Math.max(0, f.perMinute.served - f.perMinute.limit)}); ${f.perMinute.rateLimited} × 429, ${f.perMinute.refused} × 500 | ${f.research.fetches} (${Math.max(0, f.research.fetches - 1)} duplicate); ${f.research.conflicts} × 409, ${f.research.refused} × 500 | ${f.audits.accepted} / ${f.audits.lost}; ${f.audits.refused} × 500 |`,
        ),
      ].join('\n'),
    );
  });

  async function underPressure(policy: string, site: FixtureSite): Promise<PressureFigures> {
    const redis = await SmallRedis.start({ policy });
    let api: Spawned | undefined;
    let queue: Queue | undefined;
    let tenant: ReturnType<SmallRedis['tenant']> | undefined;
    const unclean: Answer[] = [];
    const sort = (a: Answer, served: number[]): 'served' | 'limited' | 'refused' | 'other' => {
      if (served.includes(a.status)) return 'served';
      if (a.status === 429 || a.status === 409) return 'limited';
      if (a.status === 500 && a.code === 'SERVER_ERROR' && a.retryAfter) return 'refused';
      unclean.push(a);
      return 'other';
    };
    try {
      const started = await startApi(redis, fake.env({ DATAFORSEO_TIMEOUT_MS: '5000' }));
      api = started.proc;
      const base = started.base;
      const admin = new AdminClient(base);
      const limited = await admin.account('pro', {
        api_calls_per_month: 'unlimited',
        requests_per_minute: 20,
      });
      const roomy = await admin.account('agency', {
        api_calls_per_month: 'unlimited',
        requests_per_minute: 100_000,
        site_audit_crawls_per_month: 100,
      });
      queue = new Queue(SITE_AUDIT_QUEUE, {
        connection: { url: redis.url, maxRetriesPerRequest: null },
        prefix: process.env.REDIS_PREFIX,
      });

      tenant = redis.tenant(); // another tenant writes without pause from here on
      await sleep(1500); // 2 MB are full by now: evicting (allkeys-lru) or refusing (noeviction)

      // 120 calls to one endpoint within the minute, 4 at a time, for a limit of 20.
      const perMinute = { limit: 20, sent: 120, served: 0, rateLimited: 0, refused: 0 };
      let next = 0;
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          while (next < perMinute.sent) {
            next++;
            const kind = sort(await call(base, '/api/v1/usage', limited.key), [200]);
            if (kind === 'served') perMinute.served++;
            else if (kind === 'limited') perMinute.rateLimited++;
            else if (kind === 'refused') perMinute.refused++;
            await sleep(20);
          }
        }),
      );

      // 8 identical research calls 250 ms apart while the first one's fetch takes 2.5 s: the
      // in-flight lock must let one fetch run (the others 409, then cache hits).
      const domain = `slow-dup-${policy}.example`;
      const research = { sent: 8, fetches: 0, conflicts: 0, refused: 0 };
      const researchAnswers = await Promise.all(
        Array.from({ length: research.sent }, async (_, i) => {
          await sleep(i * 250);
          return call(base, `/api/v1/backlinks?domain=${domain}`, roomy.key);
        }),
      );
      for (const a of researchAnswers) {
        const kind = sort(a, [200]);
        if (kind === 'limited') research.conflicts++;
        else if (kind === 'refused') research.refused++;
      }
      research.fetches = fake.requests.filter(
        (r) => r.path === '/v3/backlinks/summary/live' && JSON.stringify(r.body).includes(domain),
      ).length;

      // 12 site audits queued (no worker runs), then 2 s more of the other tenant's writes.
      const audits = { sent: 12, accepted: 0, lost: 0, refused: 0 };
      const accepted: string[] = [];
      for (let i = 0; i < audits.sent; i++) {
        const a = await call(base, '/api/v1/site-audit', roomy.key, {
          method: 'POST',
          body: { url: `${site.origin}/`, max_pages: 1 },
        });
        const kind = sort(a, [202]);
        if (kind === 'served') accepted.push(String(a.body.job_id));
        else if (kind === 'refused') audits.refused++;
      }
      audits.accepted = accepted.length;
      await sleep(2000);
      for (const id of accepted) {
        // 'unknown': the queue no longer has it; the sweeper would fail it LOST (refunded).
        if ((await queue.getJobState(id)) === 'unknown') audits.lost++;
      }
      return { policy, perMinute, research, audits, unclean };
    } finally {
      await tenant?.stop();
      await queue?.close();
      await stopProc(api);
      await redis.stop();
    }
  }

  let site: FixtureSite;
  beforeAll(async () => {
    site = await startFixtureSite({ articles: 1 });
  });
  afterAll(async () => {
    await site?.close();
  });

  it('allkeys-lru (before): measured and printed; the eviction breaks at least one rule', async () => {
    const f = await underPressure('allkeys-lru', site);
    figures.push(f);
    expect(f.unclean).toEqual([]);
    // The harness sees what eviction does (else the noeviction figures would prove nothing).
    expect(
      f.perMinute.served - f.perMinute.limit + (f.research.fetches - 1) + f.audits.lost,
    ).toBeGreaterThan(0);
  }, 90_000);

  it('noeviction (after): nothing admitted past the limit, no duplicate fetch, no lost audit; every refusal a clean 500 with Retry-After', async () => {
    const f = await underPressure('noeviction', site);
    figures.push(f);
    expect(f.unclean).toEqual([]);
    expect(f.perMinute.served).toBeLessThanOrEqual(f.perMinute.limit);
    expect(f.research.fetches).toBeLessThanOrEqual(1);
    expect(f.audits.lost).toBe(0);
    // Redis was full: the pressure was real.
    expect(f.perMinute.refused).toBeGreaterThan(0);
  }, 90_000);
});
