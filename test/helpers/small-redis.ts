import { ChildProcess, spawn } from 'node:child_process';
import Redis from 'ioredis';
import { freePort, waitForPort } from './processes';

export interface SmallRedisOptions {
  /** maxmemory-policy (e.g. noeviction, allkeys-lru). */
  policy: string;
  /** maxmemory (default 2mb). */
  maxmemory?: string;
  /** Renames CONFIG away, as managed Redis does (the policy is then read from INFO memory). */
  disableConfig?: boolean;
}

const FILLER = 'tenant-filler';

/**
 * A redis-server of the test's own on a free loopback port with a small maxmemory, no
 * persistence (nothing written to disk). `stop()` kills exactly the process it started.
 * `fill()` plays another tenant filling the memory; `free()` deletes what it wrote.
 */
export class SmallRedis {
  private child: ChildProcess | null = null;
  private admin: Redis | null = null;
  private fillerSeq = 0;

  private constructor(
    readonly port: number,
    private readonly options: SmallRedisOptions,
  ) {}

  static async start(options: SmallRedisOptions): Promise<SmallRedis> {
    const r = new SmallRedis(await freePort(), options);
    const args = [
      '--port',
      String(r.port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--maxmemory',
      options.maxmemory ?? '2mb',
      '--maxmemory-policy',
      options.policy,
    ];
    if (options.disableConfig) args.push('--rename-command', 'CONFIG', '');
    const child = spawn('redis-server', args, { stdio: 'ignore' });
    r.child = child;
    try {
      await waitForPort(r.port, 10_000, child);
    } catch (err) {
      await r.stop();
      throw err;
    }
    r.admin = new Redis(r.url, { maxRetriesPerRequest: 1 });
    r.admin.on('error', () => undefined);
    return r;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** A connection for the test's own commands (closed by stop()). */
  get client(): Redis {
    return this.admin!;
  }

  /**
   * Writes the other tenant's keys until Redis refuses a small write (noeviction: full), or,
   * under an evicting policy, until `maxKeys` are written (it then evicts to make room).
   * Returns whether Redis ended up refusing writes (needs CONFIG: not with disableConfig).
   */
  async fill(maxKeys = 20_000): Promise<boolean> {
    const redis = this.admin!;
    const big = 'x'.repeat(1000);
    for (let written = 0; written < maxKeys; written += 100) {
      const p = redis.pipeline();
      for (let i = 0; i < 100; i++) p.set(`${FILLER}:${this.fillerSeq++}`, big);
      const replies = (await p.exec()) ?? [];
      if (replies.some(([err]) => err)) break;
    }
    // Top up with small values until a small write is refused too.
    for (let i = 0; i < 10_000; i++) {
      try {
        await redis.set(`${FILLER}:${this.fillerSeq++}`, 'y');
      } catch (err) {
        if (!/OOM command not allowed/.test((err as Error).message)) throw err;
        // Full, but at the edge: used memory moves with client buffers, so a write may slip
        // in again. Lowering maxmemory under what is used (noeviction evicts nothing) keeps
        // it full for every write until free().
        const used = Number(/^used_memory:(\d+)/m.exec(await redis.info('memory'))?.[1]);
        await redis.config('SET', 'maxmemory', String(used - 256 * 1024));
        return true;
      }
    }
    return false;
  }

  /**
   * Another tenant writing without pause until `stop()` (1 KB values, 50 per round trip);
   * refused writes (noeviction) are counted, not fatal.
   */
  tenant(): { stop: () => Promise<{ written: number; refused: number }> } {
    const redis = this.admin!;
    const big = 'z'.repeat(1000);
    let running = true;
    let written = 0;
    let refused = 0;
    const loop = (async () => {
      while (running) {
        const p = redis.pipeline();
        for (let i = 0; i < 50; i++) p.set(`${FILLER}:${this.fillerSeq++}`, big);
        const replies = (await p.exec().catch(() => [])) ?? [];
        for (const [err] of replies) {
          if (err) refused++;
          else written++;
        }
        await new Promise((r) => setImmediate(r));
      }
    })();
    return {
      stop: async () => {
        running = false;
        await loop;
        return { written, refused };
      },
    };
  }

  /** Deletes the other tenant's keys (DEL is allowed at maxmemory) and restores maxmemory. */
  async free(): Promise<void> {
    const redis = this.admin!;
    await redis.config('SET', 'maxmemory', this.options.maxmemory ?? '2mb');
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${FILLER}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await redis.del(...keys);
    } while (cursor !== '0');
  }

  async stop(): Promise<void> {
    this.admin?.disconnect();
    this.admin = null;
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  }
}
