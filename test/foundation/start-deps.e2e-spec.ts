import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { freePort } from '../helpers/processes';

const ROOT = join(__dirname, '../..');

/** Runs `node scripts/start.js` and collects its output (it must stop at the dependency check, before any build). */
function start(
  env: Record<string, string>,
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'scripts/start.js')], {
      cwd: ROOT,
      env: { ...process.env, ...env, DEPENDENCY_CHECK_TIMEOUT_MS: '1000' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
  });
}

describe('npm start without PostgreSQL or Redis (issue 15)', () => {
  it('names PostgreSQL and the command that provides it; one short message, no stack trace', async () => {
    const port = await freePort();
    const r = await start({ DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/seo_api` });
    expect(r.code).toBe(1);
    expect(r.err).toContain(`PostgreSQL is not reachable at 127.0.0.1:${port} (DATABASE_URL)`);
    expect(r.err).toContain('docker compose up -d postgres redis');
    expect(r.err).not.toContain('Redis');
    expect(r.err).not.toMatch(/\n\s+at /);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.out).not.toContain('Building');
  });

  it('with REDIS_SENTINELS: names the Sentinels when none answers, REDIS_URL is not checked (issue 22)', async () => {
    const [a, b] = [await freePort(), await freePort()];
    const r = await start({
      REDIS_SENTINELS: `127.0.0.1:${a},127.0.0.1:${b}`,
      REDIS_URL: 'redis://127.0.0.1:1',
    });
    expect(r.code).toBe(1);
    expect(r.err).toContain(`No Redis Sentinel is reachable at 127.0.0.1:${a},127.0.0.1:${b}`);
    expect(r.err).not.toContain('127.0.0.1:1 (REDIS_URL)');
    expect(r.err.trim().split('\n')).toHaveLength(1);
  });

  it('names Redis when Redis is the one missing', async () => {
    const port = await freePort();
    const r = await start({ REDIS_URL: `redis://127.0.0.1:${port}` });
    expect(r.code).toBe(1);
    expect(r.err).toContain(`Redis is not reachable at 127.0.0.1:${port} (REDIS_URL)`);
    expect(r.err).toContain('docker compose up -d postgres redis');
    expect(r.err).not.toContain('PostgreSQL');
    expect(r.err).not.toMatch(/\n\s+at /);
  });
});

describe('docker-compose.yml (issue 15)', () => {
  const composeWorks =
    spawnSync('docker', ['compose', 'version'], { encoding: 'utf8', timeout: 10_000 }).status === 0;

  (composeWorks ? it : it.skip)('docker compose config -q accepts it', () => {
    const r = spawnSync('docker', ['compose', 'config', '-q'], { cwd: ROOT, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('has PostgreSQL, Redis, API and worker with health checks and healthy dependencies (schema check)', () => {
    type Service = {
      image?: string;
      build?: unknown;
      command?: unknown;
      environment?: Record<string, string>;
      healthcheck?: { test?: unknown };
      depends_on?: Record<string, { condition?: string }>;
    };
    const doc = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
      services: Record<string, Service>;
    };
    const all = doc.services;
    const services = Object.fromEntries(
      Object.entries(all).filter(([, s]) => !(s as { profiles?: string[] }).profiles),
    );
    expect(Object.keys(services).sort()).toEqual(['api', 'postgres', 'redis', 'worker']);
    for (const [name, s] of Object.entries(services)) {
      expect({ name, source: Boolean(s.image || s.build) }).toEqual({ name, source: true });
      expect({ name, healthcheck: Array.isArray(s.healthcheck?.test) }).toEqual({
        name,
        healthcheck: true,
      });
    }
    expect(services.api.build).toBeDefined();
    expect(String(services.api.healthcheck!.test)).toContain('/health/ready');
    for (const app of ['api', 'worker']) {
      const s = services[app];
      for (const dep of ['postgres', 'redis']) {
        expect(s.depends_on?.[dep]?.condition).toBe('service_healthy');
      }
      // The default (the one-box PostgreSQL); the ha profile may override it with the HAProxy address.
      expect(s.environment?.DATABASE_URL).toMatch(
        /^(\$\{DATABASE_URL:-)?postgres:\/\/.*@postgres:5432\//,
      );
      expect(s.environment?.REDIS_URL).toBe('redis://redis:6379');
    }
    expect(services.worker.image).toBe(services.api.image);
    expect(JSON.stringify(services.worker.command)).toContain('dist/apps/worker/src/main.js');
    // The Dockerfile the API is built from: node 20 slim, npm ci, build.
    const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/^FROM node:20-slim/m);
    expect(dockerfile).toContain('npm ci');
    expect(dockerfile).toContain('npm run build');
    expect(readFileSync(join(ROOT, '.dockerignore'), 'utf8')).toMatch(/^node_modules$/m);
  });

  it('profile ha: a streaming standby, two Redis replicas, three Sentinels, the contract names (issue 22)', () => {
    type Service = {
      profiles?: string[];
      command?: unknown;
      entrypoint?: unknown;
      environment?: Record<string, string>;
      healthcheck?: { test?: unknown };
    };
    const doc = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
      services: Record<string, Service>;
      configs: Record<string, { content?: string }>;
    };
    const ha = Object.entries(doc.services).filter(([, s]) => s.profiles?.includes('ha'));
    expect(ha.map(([name]) => name).sort()).toEqual([
      'etcd-1',
      'etcd-2',
      'etcd-3',
      'haproxy',
      'patroni-1',
      'patroni-2',
      'patroni-3',
      'postgres-standby',
      'redis-replica-1',
      'redis-replica-2',
      'sentinel-1',
      'sentinel-2',
      'sentinel-3',
    ]);
    for (const [name, s] of ha) {
      expect({ name, healthcheck: Array.isArray(s.healthcheck?.test) }).toEqual({
        name,
        healthcheck: true,
      });
    }
    expect(JSON.stringify(doc.services['postgres-standby'].entrypoint)).toContain('pg_basebackup');
    expect(JSON.stringify(doc.services['redis-replica-1'].command)).toContain('--replicaof');
    for (const n of [1, 2, 3]) {
      const command = JSON.stringify(doc.services[`sentinel-${n}`].command);
      expect(command).toContain('sentinel monitor seo redis 6379 2');
      expect(command).toContain('--sentinel');
    }
    expect(doc.configs['pg-replication'].content).toContain('host replication');
    for (const app of ['api', 'worker']) {
      const env = doc.services[app].environment!;
      expect(env.REDIS_SENTINELS).toBe('${REDIS_SENTINELS:-}');
      expect(env.REDIS_SENTINEL_MASTER).toBe('seo');
      expect(env.DATABASE_READ_URL).toBe('${DATABASE_READ_URL:-}');
    }
  });
});
