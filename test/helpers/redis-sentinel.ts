import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { freePort, waitForPort } from './processes';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A Redis master with two replicas and three Sentinels, made of the machine's own
 * `redis-server` (`--sentinel` for the Sentinels), on free loopback ports, with every file in
 * one temporary directory. A master is judged down after 1 s and a failover may take 5 s.
 * `stop()` kills exactly the processes it started and removes the directory.
 */
export class SentinelGroup {
  readonly masterName = 'seo';
  private readonly servers = new Map<number, ChildProcess>();
  private readonly sentinelProcs: ChildProcess[] = [];
  private constructor(
    private readonly dir: string,
    readonly sentinelPorts: number[],
  ) {}

  /** `host:port,...` of the Sentinels (REDIS_SENTINELS). */
  get sentinels(): string {
    return this.sentinelPorts.map((p) => `127.0.0.1:${p}`).join(',');
  }

  static async start(): Promise<SentinelGroup> {
    const dir = mkdtempSync(join(tmpdir(), 'seo-sentinel-'));
    const ports = {
      master: await freePort(),
      replicas: [await freePort(), await freePort()],
      sentinels: [await freePort(), await freePort(), await freePort()],
    };
    const group = new SentinelGroup(dir, ports.sentinels);
    try {
      await group.startServer(ports.master);
      for (const p of ports.replicas) await group.startServer(p, ports.master);
      await group.waitForReplicas(ports.master, 2);
      for (const [i, port] of ports.sentinels.entries()) {
        const conf = join(dir, `sentinel-${i}.conf`);
        writeFileSync(
          conf,
          [
            `port ${port}`,
            'bind 127.0.0.1',
            `dir ${dir}`,
            `sentinel monitor ${group.masterName} 127.0.0.1 ${ports.master} 2`,
            `sentinel down-after-milliseconds ${group.masterName} 1000`,
            `sentinel failover-timeout ${group.masterName} 5000`,
            `sentinel parallel-syncs ${group.masterName} 2`,
            '',
          ].join('\n'),
        );
        const child = spawn('redis-server', [conf, '--sentinel'], { stdio: 'ignore' });
        group.sentinelProcs.push(child);
        await waitForPort(port);
      }
      await group.waitForSentinelsToAgree(ports.master);
      return group;
    } catch (err) {
      await group.stop();
      throw err;
    }
  }

  private async startServer(port: number, replicaOf?: number): Promise<void> {
    const args = [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
    ];
    args.push('--dir', this.dir);
    if (replicaOf) args.push('--replicaof', '127.0.0.1', String(replicaOf));
    const child = spawn('redis-server', args, { stdio: 'ignore' });
    this.servers.set(port, child);
    await waitForPort(port);
  }

  private async waitForReplicas(masterPort: number, count: number): Promise<void> {
    const r = new Redis({ port: masterPort, host: '127.0.0.1', lazyConnect: true });
    try {
      await r.connect();
      const deadline = Date.now() + 15_000;
      for (;;) {
        const info = await r.info('replication');
        const online = (info.match(/state=online/g) ?? []).length;
        if (online >= count) return;
        if (Date.now() > deadline) throw new Error(`replicas not in sync:\n${info}`);
        await sleep(100);
      }
    } finally {
      r.disconnect();
    }
  }

  /** The master's port as the first answering Sentinel names it. */
  async masterPort(): Promise<number> {
    for (const port of this.sentinelPorts) {
      const s = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0 });
      try {
        await s.connect();
        const addr = (await s.call('SENTINEL', 'get-master-addr-by-name', this.masterName)) as
          [string, string] | null;
        if (addr) return Number(addr[1]);
      } catch {
        // try the next Sentinel
      } finally {
        s.disconnect();
      }
    }
    throw new Error('no Sentinel names a master');
  }

  private async waitForSentinelsToAgree(masterPort: number): Promise<void> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const s = new Redis({ port: this.sentinelPorts[0], host: '127.0.0.1' });
      try {
        const info = (await s.call('SENTINEL', 'master', this.masterName)) as string[];
        const field = (name: string) => info[info.indexOf(name) + 1];
        if (
          Number(field('port')) === masterPort &&
          Number(field('num-other-sentinels')) >= 2 &&
          Number(field('num-slaves')) >= 2
        ) {
          return;
        }
      } finally {
        s.disconnect();
      }
      if (Date.now() > deadline) throw new Error('Sentinels did not discover each other');
      await sleep(200);
    }
  }

  /**
   * SIGKILLs the current master and waits until the Sentinels name a new one (a replica they
   * promoted); returns the milliseconds that took and the new master's port.
   */
  async killMaster(): Promise<{ failoverMs: number; newMasterPort: number }> {
    const old = await this.masterPort();
    const started = Date.now();
    const child = this.servers.get(old);
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
    }
    this.servers.delete(old);
    const deadline = Date.now() + 30_000;
    for (;;) {
      const now = await this.masterPort().catch(() => old);
      if (now !== old) return { failoverMs: Date.now() - started, newMasterPort: now };
      if (Date.now() > deadline) throw new Error('no failover within 30 s');
      await sleep(100);
    }
  }

  async stop(): Promise<void> {
    const all = [...this.sentinelProcs, ...this.servers.values()];
    await Promise.all(
      all.map(async (child) => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGKILL');
        await exited;
      }),
    );
    this.sentinelProcs.length = 0;
    this.servers.clear();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
