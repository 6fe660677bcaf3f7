import { spawn } from 'node:child_process';
import net from 'node:net';
import { join } from 'node:path';
import { freePort } from '../helpers/processes';
import { SentinelGroup } from '../helpers/redis-sentinel';

const ROOT = join(__dirname, '../..');

/** `node scripts/check-deps.js` (what `npm start` runs first) with `env`. */
function checkDeps(env: Record<string, string>): Promise<{ code: number | null; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'scripts/check-deps.js')], {
      cwd: ROOT,
      env: { ...process.env, REDIS_URL: 'redis://127.0.0.1:1', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, err });
    });
  });
}

/** A TCP server answering every command with `reply` (a RESP text), as a fake Sentinel or master. */
async function fakeRedis(reply: string): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => undefined);
    s.on('data', () => s.write(reply));
  });
  const port = await freePort();
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', () => r()));
  return {
    port,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

const bulk = (s: string) => `$${Buffer.byteLength(s)}\r\n${s}\r\n`;

describe('npm start dependency check with REDIS_SENTINELS (issue 22)', () => {
  let group: SentinelGroup;

  beforeAll(async () => {
    group = await SentinelGroup.start();
  }, 60_000);

  afterAll(async () => {
    await group?.stop();
  });

  it('passes when one Sentinel names the master and the master answers; REDIS_URL is not checked', async () => {
    const dead = await freePort();
    const r = await checkDeps({
      REDIS_SENTINELS: `127.0.0.1:${dead},${group.sentinels}`,
      REDIS_SENTINEL_MASTER: group.masterName,
    });
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
  });

  it('names REDIS_SENTINEL_MASTER when the Sentinels do not monitor that name', async () => {
    const r = await checkDeps({ REDIS_SENTINELS: group.sentinels, REDIS_SENTINEL_MASTER: 'nope' });
    expect(r.code).toBe(1);
    expect(r.err.trim()).toBe(
      `The Redis Sentinels at ${group.sentinels} do not monitor a master named "nope" (REDIS_SENTINEL_MASTER; default seo).`,
    );
  });

  it('a master that does not answer, or wants a password, is named with the Sentinel that named it', async () => {
    const silent = await freePort();
    const sentinel = await fakeRedis(`*2\r\n${bulk('127.0.0.1')}${bulk(String(silent))}`);
    const locked = await fakeRedis('-NOAUTH Authentication required.\r\n');
    const sentinelOfLocked = await fakeRedis(
      `*2\r\n${bulk('127.0.0.1')}${bulk(String(locked.port))}`,
    );
    try {
      let r = await checkDeps({ REDIS_SENTINELS: `127.0.0.1:${sentinel.port}` });
      expect(r.code).toBe(1);
      expect(r.err.trim()).toBe(
        `The Sentinel at 127.0.0.1:${sentinel.port} names 127.0.0.1:${silent} as the Redis master "seo", but it does not answer PING.`,
      );
      r = await checkDeps({ REDIS_SENTINELS: `127.0.0.1:${sentinelOfLocked.port}` });
      expect(r.code).toBe(1);
      expect(r.err).toContain(`The Redis master "seo" at 127.0.0.1:${locked.port}`);
      expect(r.err).toContain('requires a password');
    } finally {
      await Promise.all([sentinel.close(), locked.close(), sentinelOfLocked.close()]);
    }
  });

  it('a Redis server given as a Sentinel, and a malformed list, are named', async () => {
    const notSentinel = await fakeRedis("-ERR unknown command 'SENTINEL'\r\n");
    try {
      let r = await checkDeps({ REDIS_SENTINELS: `127.0.0.1:${notSentinel.port}` });
      expect(r.code).toBe(1);
      expect(r.err.trim()).toBe(
        `A Redis Sentinel was expected at REDIS_SENTINELS, but 127.0.0.1:${notSentinel.port} answered "ERR unknown command 'SENTINEL'".`,
      );
      r = await checkDeps({ REDIS_SENTINELS: 'redis://127.0.0.1:26379' });
      expect(r.code).toBe(1);
      expect(r.err).toContain('REDIS_SENTINELS must be a comma-separated list of host:port');
    } finally {
      await notSentinel.close();
    }
  });
});
