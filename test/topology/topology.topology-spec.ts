import http from 'node:http';
import { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../libs/database/src/data-source-options';
import { FakeDataForSeo } from '../fixtures/fake-dataforseo';
import { AdminClient, TestAccount, bearer } from '../helpers/fixtures';
import { PgCluster } from '../helpers/pg-cluster';
import { Spawned, freePort, spawnDist, waitForHttp } from '../helpers/processes';
import { SentinelGroup } from '../helpers/redis-sentinel';
import { FixtureSite, startFixtureSite } from '../site-audit/fixture-site';
import { YourDataAdmin } from '../your-data/your-data-fixtures';
import { Balancer } from './balancer';
import { Answer, FaultReport, loops, record, stopLoops, summarize } from './traffic';

/**
 * `npm run test:topology` (issue 22): the service on more than one copy of everything, on
 * loopback ports and in temporary directories — a PostgreSQL primary with a streaming
 * standby, a Redis master with two replicas and three Sentinels, two API processes behind a
 * small balancer, two workers — driven with mixed traffic while, one after another, the Redis
 * master is SIGKILLed, the standby stopped, one API process SIGKILLed and one worker SIGKILLed
 * mid-crawl. It prints per fault what was served, refused and failed and how long until the
 * service was whole, and fails when a money-like count is off, a job is not terminal within
 * two minutes of the last fault, a webhook was not delivered, or a 5xx came outside a fault's
 * window.
 */
const ADMIN_TOKEN = 'topology-admin-token-0123456789';
/** How long each fault may keep answering 5xx (the Redis one: detection + election). */
const WINDOW_MS: Record<string, number> = {
  'SIGKILL Redis master': 20_000,
  'stop the standby': 3_000,
  'SIGKILL one API process': 3_000,
  'SIGKILL one worker mid-crawl': 0,
};
const SETTLE_MS = 8_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const today = () => new Date().toISOString().slice(0, 10);

/** A webhook receiver: the job ids of the payloads it was sent. */
async function startReceiver() {
  const jobs = new Map<string, string>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          data?: { job_id?: string; status?: string };
        };
        if (body.data?.job_id) jobs.set(body.data.job_id, String(body.data.status));
      } catch {
        // not a payload of ours
      }
      res.statusCode = 200;
      res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    jobs,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

describe('Topology: primary + standby, Redis + Sentinels, 2 APIs, 2 workers; each part killed under load', () => {
  let pg: PgCluster;
  let redis: SentinelGroup;
  let fake: FakeDataForSeo;
  let site: FixtureSite;
  let slowSite: FixtureSite;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let balancer: Balancer;
  const apis: Spawned[] = [];
  const workers: Spawned[] = [];
  let primaryUrl = '';
  let env: Record<string, string> = {};

  const stopAll = async () => {
    await stopLoops();
    for (const p of [...apis, ...workers]) {
      if (p.child.exitCode === null) p.child.kill('SIGTERM');
    }
    await Promise.race([Promise.all([...apis, ...workers].map((p) => p.exited)), sleep(15_000)]);
    for (const p of [...apis, ...workers]) if (p.child.exitCode === null) p.child.kill('SIGKILL');
    await balancer?.close().catch(() => undefined);
    await receiver?.close().catch(() => undefined);
    await site?.close().catch(() => undefined);
    await slowSite?.close().catch(() => undefined);
    await fake?.close().catch(() => undefined);
    await redis?.stop().catch(() => undefined);
    await pg?.stop().catch(() => undefined);
  };

  beforeAll(async () => {
    try {
      [pg, redis] = await Promise.all([PgCluster.start(), SentinelGroup.start()]);
      primaryUrl = await pg.createDatabase('seo_topology');
      const ds = new DataSource(dataSourceOptions(primaryUrl, 2));
      await ds.initialize();
      await ds.runMigrations({ transaction: 'each' });
      await ds.destroy();
      await pg.waitForReplay();

      fake = new FakeDataForSeo();
      await fake.start();
      site = await startFixtureSite({ articles: 3 });
      slowSite = await startFixtureSite({ articles: 30, delayMs: 1500 });
      receiver = await startReceiver();

      const ports = [await freePort(), await freePort()];
      balancer = new Balancer(ports.map((p) => `http://127.0.0.1:${p}`));
      await balancer.start();
      env = {
        ...fake.env(),
        NODE_ENV: 'test',
        ADMIN_TOKEN,
        DATABASE_URL: primaryUrl,
        DATABASE_READ_URL: pg.standbyUrl('seo_topology'),
        DATABASE_READ_MAX_LAG_MS: '5000',
        REDIS_SENTINELS: redis.sentinels,
        REDIS_SENTINEL_MASTER: redis.masterName,
        REDIS_URL: 'redis://127.0.0.1:1', // ignored with REDIS_SENTINELS
        REDIS_PREFIX: 'topology',
        PUBLIC_BASE_URL: balancer.url,
        TRUST_PROXY: 'loopback',
        LOG_LEVEL: 'info',
        AUDIT_ALLOW_PRIVATE_NETWORKS: 'true',
        AUDIT_POLITENESS_DELAY_MS: '0',
        AUDIT_STALLED_INTERVAL_MS: '5000',
        WORKER_CONCURRENCY: '1',
        WEBHOOK_RETRY_SCHEDULE_MS: '500,1000,2000,4000,8000',
      };
      for (const port of ports) {
        apis.push(spawnDist('apps/api/src/main.js', { ...env, PORT: String(port) }));
      }
      await Promise.all(
        ports.map((p) => waitForHttp(`http://127.0.0.1:${p}/health/ready`, 60_000)),
      );
      for (let i = 0; i < 2; i++) workers.push(spawnDist('apps/worker/src/main.js', env));
    } catch (err) {
      await stopAll();
      throw err;
    }
  }, 180_000);

  afterAll(async () => {
    await stopAll();
  }, 60_000);

  it('serves through every fault; meter, credits and quotas exact; every job ends and every webhook arrives', async () => {
    process.env.ADMIN_TOKEN = ADMIN_TOKEN;
    const base = balancer.url;
    const admin = new AdminClient(base);
    const yd = new YourDataAdmin(admin);
    const roomy = { api_calls_per_month: 'unlimited', requests_per_minute: 1_000_000 };
    const usageAcc = await admin.account('agency', roomy);
    const dataAcc = await admin.account('agency', roomy);
    const researchAcc = await admin.account('pro', {
      ...roomy,
      backlinks_per_month: 15,
    });
    await admin.credits(researchAcc.id, 20);
    const auditAcc = await admin.account('agency', {
      ...roomy,
      site_audit_crawls_per_month: 1_000_000,
      site_audit_rolling_page_budget: 1_000_000,
    });

    // Your-data to read: a rank project with checked keywords, a GSC property, an AI project.
    const project = await yd.rankProject(dataAcc.id, 'topology.example', 'Topology');
    const keywords: number[] = [];
    for (let i = 0; i < 20; i++) {
      const kw = await yd.keyword(project, `keyword ${i}`);
      await yd.checks(kw, [{ check_date: today(), position: 1 + i }]);
      keywords.push(kw);
    }
    const property = await yd.gscProperty(dataAcc.id, 'sc-domain:topology.example');
    await yd.gscRows(
      property,
      Array.from({ length: 200 }, (_, i) => ({
        date: today(),
        query: `query ${i}`,
        page: `https://topology.example/${i % 20}`,
        country: 'usa',
        device: 'desktop',
        clicks: i % 7,
        impressions: 10 + i,
        position: 1 + (i % 30),
      })),
    );
    await pg.waitForReplay();

    const answers: Answer[] = [];
    const jobs = new Set<string>();
    const call = (kind: Answer['kind'], acc: TestAccount, path: string, init: RequestInit = {}) =>
      record(answers, kind, `${base}${path}`, {
        ...init,
        headers: { ...bearer(acc.key), 'content-type': 'application/json', ...init.headers },
      });
    const dataPaths = [
      `/api/v1/rank/keywords?project_id=${project}`,
      `/api/v1/gsc/queries?property_id=${property}&from=${today()}&to=${today()}`,
      `/api/v1/gsc/properties`,
      `/api/v1/ai-visibility/projects`,
    ];
    let n = 0;
    const startAudit = async (url: string, maxPages: number) => {
      const a = await call('audit-start', auditAcc, '/api/v1/site-audit', {
        method: 'POST',
        body: JSON.stringify({ url, max_pages: maxPages, depth: 2, webhook_url: receiver.url }),
      });
      const id = (a.body?.job_id as string | undefined) ?? undefined;
      if (a.status === 202 && id) jobs.add(id);
      return id;
    };
    const traffic = [
      loops(3, () => call('usage', usageAcc, '/api/v1/usage'), 10),
      loops(2, () => call('your-data', dataAcc, dataPaths[n++ % dataPaths.length]), 10),
      loops(
        1,
        () => call('research', researchAcc, `/api/v1/backlinks?domain=site${n++ % 40}.example`),
        150,
      ),
      loops(1, () => startAudit(`${site.origin}/`, 4), 2_000),
      loops(
        1,
        async () => {
          for (const id of [...jobs].slice(-3)) {
            await call('job-poll', auditAcc, `/api/v1/jobs/${id}?wait=5`);
          }
        },
        200,
      ),
    ];

    const reports: FaultReport[] = [];
    const faults: Array<[string, () => Promise<void>]> = [
      [
        'SIGKILL Redis master',
        async () => {
          await redis.killMaster();
        },
      ],
      ['stop the standby', () => pg.stopStandby()],
      [
        'SIGKILL one API process',
        async () => {
          apis[1].child.kill('SIGKILL');
          await apis[1].exited;
        },
      ],
      [
        'SIGKILL one worker mid-crawl',
        async () => {
          // Two slow crawls, one per worker (concurrency 1 each): the one on worker 0 dies.
          await startAudit(`${slowSite.origin}/`, 30);
          await startAudit(`${slowSite.origin}/`, 30);
          await sleep(2_500);
          workers[0].child.kill('SIGKILL');
          await workers[0].exited;
        },
      ],
    ];
    const begun = Date.now();
    await sleep(SETTLE_MS);
    let lastFaultAt = 0;
    for (const [name, act] of faults) {
      const at = Date.now();
      await act();
      lastFaultAt = Date.now();
      await sleep(SETTLE_MS + (name === 'SIGKILL Redis master' ? 8_000 : 0));
      reports.push(summarize(name, at, Date.now(), answers));
    }
    for (const t of traffic) await t.stop();
    const before = summarize('before any fault', begun, reports[0].at, answers);

    // Every job terminal within two minutes of the last fault, every webhook delivered.
    const deadline = lastFaultAt + 120_000;
    const status = async (id: string) => {
      const a = await call('job-poll', auditAcc, `/api/v1/jobs/${id}`);
      return String((a.body?.data as { status?: string } | undefined)?.status);
    };
    const unfinished = new Set(jobs);
    while (unfinished.size > 0 && Date.now() < deadline) {
      for (const id of [...unfinished]) {
        const s = await status(id);
        if (s === 'complete' || s === 'failed') unfinished.delete(id);
      }
      if (unfinished.size > 0) await sleep(1_000);
    }
    while (Date.now() < deadline && [...jobs].some((id) => !receiver.jobs.has(id))) {
      await sleep(500);
    }

    // The figures of the run.
    const rows = [before, ...reports].map((r) => ({
      fault: r.fault,
      served: r.served,
      refused: JSON.stringify(r.refused),
      failed: JSON.stringify(r.failed),
      whole_after_ms: r.wholeAfterMs,
    }));
    console.log(
      `Topology run: ${answers.length} answers, ${jobs.size} site audits, ` +
        `${balancer.indeterminate} dropped by a killed API process\n` +
        rows.map((r) => JSON.stringify(r)).join('\n'),
    );

    expect([...unfinished]).toEqual([]);
    expect([...jobs].filter((id) => !receiver.jobs.has(id))).toEqual([]);
    expect(jobs.size).toBeGreaterThan(5);

    // No 5xx before the first fault, none outside each fault's window.
    const fivexx = (a: Answer) => (a.status >= 500 || a.status === 0) && !a.indeterminate;
    // (A request in flight when the first fault hit belongs to that fault's window.)
    expect(answers.filter((a) => fivexx(a) && a.end < reports[0].at)).toEqual([]);
    for (const [i, r] of reports.entries()) {
      const until = i + 1 < reports.length ? reports[i + 1].at : Infinity;
      const late = answers.filter(
        (a) => fivexx(a) && a.start >= r.at + WINDOW_MS[r.fault] && a.start < until,
      );
      expect({ fault: r.fault, late: late.length }).toEqual({ fault: r.fault, late: 0 });
    }
    // Every 5xx that the API answered during a window is the clean one.
    for (const a of answers.filter((x) => x.status >= 500 && !x.indeterminate)) {
      expect({ status: a.status, code: a.code }).toEqual({ status: 500, code: 'SERVER_ERROR' });
    }

    // Money-like counts. A request an API accepted and then died with may have been counted:
    // those are the only slack, reported by the balancer.
    const slack = balancer.indeterminate;
    const usage = async (acc: TestAccount) =>
      (await admin.get(`/accounts/${acc.id}`)).body.data.usage as Record<string, number>;
    const metered = (kind: Answer['kind'][]) =>
      answers.filter(
        (a) =>
          kind.includes(a.kind) &&
          !a.indeterminate &&
          ((a.status >= 200 && a.status < 300) ||
            [402, 404, 409, 422, 502].includes(a.status) ||
            (a.status === 429 && a.code === 'QUOTA_EXCEEDED')),
      ).length;
    // A 500 of a route that touches Redis after the meter (research lock, enqueue, long-poll)
    // may have been counted; /usage and the your-data reads fail, if at all, before it.
    const after = (kinds: Answer['kind'][]) =>
      answers.filter((a) => kinds.includes(a.kind) && a.status >= 500 && !a.indeterminate).length;
    const meters: Array<Record<string, unknown>> = [];
    for (const [acc, kinds, exact] of [
      [usageAcc, ['usage'], true],
      [dataAcc, ['your-data'], true],
      [researchAcc, ['research'], false],
      [auditAcc, ['audit-start', 'job-poll'], false],
    ] as Array<[TestAccount, Answer['kind'][], boolean]>) {
      const counted = (await usage(acc)).api_calls_per_month;
      const expected = metered(kinds);
      const most = expected + slack + (exact ? 0 : after(kinds));
      meters.push({ kinds: kinds.join('+'), counted, answered: expected, at_most: most });
    }
    console.log(`Topology meters: ${JSON.stringify(meters)}`);
    for (const m of meters) {
      expect(m.counted).toBeGreaterThanOrEqual(m.answered as number);
      expect(m.counted).toBeLessThanOrEqual(m.at_most as number);
    }
    const research = answers.filter((a) => a.kind === 'research' && a.status === 200);
    const byQuota = research.filter((a) => a.charged === 'quota').length;
    const byCredit = research.filter((a) => a.charged === 'credit').length;
    const u = await usage(researchAcc);
    expect(u.backlinks_per_month).toBeGreaterThanOrEqual(byQuota);
    expect(u.backlinks_per_month).toBeLessThanOrEqual(byQuota + slack);
    expect(20 - u.credits).toBeGreaterThanOrEqual(byCredit);
    expect(20 - u.credits).toBeLessThanOrEqual(byCredit + slack);
  }, 420_000);
});
