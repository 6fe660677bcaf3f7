import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createOwnDatabase } from '../helpers/own-database';
import { Spawned, freePort, spawnDist, waitForHttp } from '../helpers/processes';
import { SmallRedis } from '../helpers/small-redis';

/**
 * Issue 35: a Redis that evicts keys is refused. The compiled API and worker on a Redis of
 * the test's own (free port, maxmemory 2mb): in production any maxmemory-policy but
 * noeviction stops the start with a message saying what to set (CONFIG GET, or INFO memory
 * where CONFIG is disabled as on managed Redis); in development it is a warning; readiness
 * and /metrics show the policy, and a policy changed at runtime is seen after a reconnection.
 * Each test stops the processes and servers it started.
 */
const ROOT = join(__dirname, '../..');
const ADMIN = () => process.env.ADMIN_TOKEN!;

describe('Redis maxmemory-policy at start-up, in readiness and in /metrics (issue 35)', () => {
  let db: Awaited<ReturnType<typeof createOwnDatabase>>;
  const redises: SmallRedis[] = [];
  const procs: Spawned[] = [];

  beforeAll(async () => {
    // Its own database: production start-up checks (e.g. sealed webhook secrets) must not
    // depend on what other suites left in the run's database.
    db = await createOwnDatabase('redis_policy');
  });

  afterEach(async () => {
    for (const p of procs.splice(0)) {
      if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGTERM');
      await p.exited;
    }
    for (const r of redises.splice(0)) await r.stop();
  });

  afterAll(async () => {
    await db?.drop();
  });

  async function redis(policy: string, disableConfig = false): Promise<SmallRedis> {
    const r = await SmallRedis.start({ policy, disableConfig });
    redises.push(r);
    return r;
  }

  function api(r: SmallRedis, env: Record<string, string> = {}) {
    return start('apps/api/src/main.js', r, env);
  }

  async function start(
    entry: string,
    r: SmallRedis,
    env: Record<string, string>,
  ): Promise<{ proc: Spawned; base: string }> {
    const port = await freePort();
    const proc = spawnDist(entry, {
      PORT: String(port),
      REDIS_URL: r.url,
      DATABASE_URL: db.url,
      LOG_LEVEL: 'info',
      NODE_ENV: 'development',
      ...env,
    });
    procs.push(proc);
    return { proc, base: `http://127.0.0.1:${port}` };
  }

  async function linesOf(proc: Spawned, text: string, waitMs = 10_000): Promise<string[]> {
    const deadline = Date.now() + waitMs;
    for (;;) {
      const lines = proc
        .stdout()
        .split('\n')
        .filter((l) => l.includes(text));
      if (lines.length > 0 || Date.now() > deadline) return lines;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async function exitOf(proc: Spawned): Promise<number | null> {
    const timer = setTimeout(() => proc.child.kill('SIGKILL'), 30_000);
    try {
      return await proc.exited;
    } finally {
      clearTimeout(timer);
    }
  }

  it('production + allkeys-lru: the API refuses to start, saying what to set; no stack trace', async () => {
    const r = await redis('allkeys-lru');
    const { proc } = await api(r, { NODE_ENV: 'production' });
    expect(await exitOf(proc)).toBe(1);
    const err = proc.stderr();
    expect(err).toContain(`Redis (127.0.0.1:${r.port}) has maxmemory-policy allkeys-lru`);
    expect(err).toContain('Set maxmemory-policy noeviction');
    expect(err).not.toMatch(/\n\s+at /);
    expect(proc.stdout()).not.toContain('API listening');
  }, 40_000);

  it('production + volatile-lru with CONFIG disabled (managed Redis): read from INFO memory, refused too', async () => {
    const r = await redis('volatile-lru', true);
    await expect(r.client.call('CONFIG', 'GET', 'maxmemory-policy')).rejects.toThrow(
      /unknown command/,
    );
    const { proc } = await api(r, { NODE_ENV: 'production' });
    expect(await exitOf(proc)).toBe(1);
    expect(proc.stderr()).toContain('has maxmemory-policy volatile-lru');
  }, 40_000);

  it('production + allkeys-lru: the worker refuses to start before taking jobs', async () => {
    const r = await redis('allkeys-lru');
    const { proc } = await start('apps/worker/src/main.js', r, { NODE_ENV: 'production' });
    expect(await exitOf(proc)).toBe(1);
    expect(proc.stderr()).toContain(`Redis (127.0.0.1:${r.port}) has maxmemory-policy allkeys-lru`);
    expect(proc.stdout()).not.toContain('Worker ready');
  }, 40_000);

  it('development + allkeys-lru: starts with one warning; readiness and /metrics show the policy; a change to noeviction is seen after a reconnection', async () => {
    const r = await redis('allkeys-lru');
    const { proc, base } = await api(r);
    await waitForHttp(`${base}/health/ready`, 30_000);
    // The logger writes buffered: the line may land a moment after readiness.
    const warnings = await linesOf(proc, 'has maxmemory-policy allkeys-lru');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('development: starting anyway');

    let ready = (await (await fetch(`${base}/health/ready`)).json()) as {
      data: { redis_memory_policy: Record<string, unknown> };
    };
    expect(ready.data.redis_memory_policy).toMatchObject({
      policy: 'allkeys-lru',
      ok: false,
      maxmemory: 2 * 1024 * 1024,
      source: 'config',
    });
    const metrics = await (
      await fetch(`${base}/metrics`, { headers: { Authorization: `Bearer ${ADMIN()}` } })
    ).text();
    expect(metrics).toMatch(/^redis_maxmemory_policy\{policy="allkeys-lru"\} 1$/m);
    expect(metrics).toMatch(/^redis_maxmemory_bytes 2097152$/m);
    expect(metrics).toMatch(/^redis_oom_refusals_total 0$/m);

    // Fixed at runtime; the API reads it again on its next reconnection (and every minute).
    await r.client.config('SET', 'maxmemory-policy', 'noeviction');
    await r.client.client('KILL', 'TYPE', 'normal', 'SKIPME', 'yes');
    const deadline = Date.now() + 10_000;
    for (;;) {
      ready = (await (await fetch(`${base}/health/ready`)).json()) as typeof ready;
      if (ready.data?.redis_memory_policy?.policy === 'noeviction' || Date.now() > deadline) break;
      await new Promise((res) => setTimeout(res, 100));
    }
    expect(ready.data.redis_memory_policy).toMatchObject({ policy: 'noeviction', ok: true });
  }, 60_000);

  it('production + noeviction starts and is ready; the policy switched to allkeys-lru at runtime makes it unready (503) naming the setting', async () => {
    const r = await redis('noeviction');
    const { base } = await api(r, { NODE_ENV: 'production' });
    await waitForHttp(`${base}/health/ready`, 30_000);
    let res = await fetch(`${base}/health/ready`);
    expect(res.status).toBe(200);
    expect(
      ((await res.json()) as { data: { redis_memory_policy: unknown } }).data.redis_memory_policy,
    ).toMatchObject({ policy: 'noeviction', ok: true });

    await r.client.config('SET', 'maxmemory-policy', 'allkeys-lru');
    await r.client.client('KILL', 'TYPE', 'normal', 'SKIPME', 'yes');
    const deadline = Date.now() + 10_000;
    do {
      await new Promise((resolve) => setTimeout(resolve, 100));
      res = await fetch(`${base}/health/ready`);
    } while (res.status === 200 && Date.now() < deadline);
    expect(res.status).toBe(503);
    const body = (await res.json()) as {
      error: { code: string; message: string; details: unknown };
    };
    expect(body.error.code).toBe('SERVICE_UNAVAILABLE');
    expect(body.error.message).toContain('Set maxmemory-policy noeviction');
    expect(body.error.details).toMatchObject({
      postgres: 'ok',
      redis: 'ok',
      redis_memory_policy: 'allkeys-lru',
    });
  }, 60_000);

  it("npm start's dependency check: a warning in development, a refusal with NODE_ENV=production", async () => {
    const r = await redis('allkeys-lfu');
    const run = (env: Record<string, string>) =>
      new Promise<{ code: number | null; err: string }>((resolve) => {
        const child = spawn(process.execPath, [join(ROOT, 'scripts/check-deps.js')], {
          env: { ...process.env, REDIS_URL: r.url, DATABASE_URL: db.url, ...env },
          stdio: ['ignore', 'ignore', 'pipe'],
        });
        let err = '';
        child.stderr.on('data', (d: Buffer) => (err += d.toString()));
        child.once('exit', (code) => resolve({ code, err }));
      });
    const dev = await run({ NODE_ENV: 'development' });
    expect(dev.code).toBe(0);
    expect(dev.err).toContain(
      `Warning: Redis at 127.0.0.1:${r.port} has maxmemory-policy allkeys-lfu`,
    );
    const prod = await run({ NODE_ENV: 'production' });
    expect(prod.code).toBe(1);
    expect(prod.err).toContain('Set maxmemory-policy noeviction');
    expect(prod.err).not.toContain('Warning');
  }, 30_000);
});
