import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { freePort, waitForPort } from './processes';

const REDIS_SERVER = '/usr/bin/redis-server';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Every process group this helper started and has not reaped yet. If the test process exits
 * without `stop()` (a crash, a killed Jest worker), they are SIGKILLed on its way out.
 */
const live = new Set<ChildProcess>();
let exitHookInstalled = false;

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal); // the server and anything it forked (RDB transfer to replicas)
  } catch {
    // already gone
  }
}

/** Starts redis-server as the leader of its own process group, so stop() reaches its children. */
function spawnRedis(args: string[]): ChildProcess {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const child of live) signalGroup(child, 'SIGKILL');
    });
  }
  const child = spawn(REDIS_SERVER, args, { stdio: 'ignore', detached: true });
  live.add(child);
  child.once('exit', () => live.delete(child));
  return child;
}

/** SIGKILLs a server's process group and waits for the server to exit. */
async function killGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  signalGroup(child, 'SIGCONT'); // a frozen (SIGSTOPped) server too
  signalGroup(child, 'SIGKILL');
  await exited;
}

/** One short-lived connection (no retries), closed after `fn`. */
async function withClient<T>(port: number, fn: (r: Redis) => Promise<T>): Promise<T> {
  const r = new Redis({
    port,
    host: '127.0.0.1',
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: 1000,
    commandTimeout: 1000,
  });
  r.on('error', () => undefined);
  try {
    await r.connect();
    return await fn(r);
  } finally {
    r.disconnect();
  }
}

export interface Failover {
  /** When the master was signalled (epoch ms). */
  struckAt: number;
  /** From the signal to the Sentinels naming a new master that answers as one. */
  failoverMs: number;
  oldMasterPort: number;
  newMasterPort: number;
}

/**
 * A Redis master with two replicas and three Sentinels, made of the machine's own
 * `/usr/bin/redis-server` (`--sentinel` for the Sentinels, each with its own writable config
 * file), on free loopback ports, with every file in one temporary directory. A master is
 * judged down after 1 s (`down-after-milliseconds`, quorum 2) and a failover may take 5 s.
 * Every server runs in its own process group; `stop()` kills exactly those groups and removes
 * the directory (also when `start()` fails half-way, and on the test process's exit).
 */
export class SentinelGroup {
  readonly masterName = 'seo';
  private readonly servers = new Map<number, ChildProcess>();
  private readonly sentinelProcs: ChildProcess[] = [];
  private readonly frozenSentinels = new Set<number>();
  private stopped = false;
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
        const child = spawnRedis([conf, '--sentinel']);
        group.sentinelProcs.push(child);
        await waitForPort(port, 10_000, child);
      }
      await group.waitForSentinelsToAgree(ports.master, 2);
      return group;
    } catch (err) {
      await group.stop();
      throw err;
    }
  }

  private async startServer(port: number, replicaOf?: number): Promise<void> {
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly'];
    args.push('no', '--dir', this.dir);
    if (replicaOf) args.push('--replicaof', '127.0.0.1', String(replicaOf));
    const child = spawnRedis(args);
    this.servers.set(port, child);
    await waitForPort(port, 10_000, child);
  }

  /** Waits until `count` replicas are online (in sync) on the master at `masterPort`. */
  async waitForReplicas(masterPort: number, count: number, timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const info = await withClient(masterPort, (r) => r.info('replication')).catch(
        (err: Error) => err.message,
      );
      const online = (info.match(/state=online/g) ?? []).length;
      if (online >= count) return;
      if (Date.now() > deadline) throw new Error(`replicas not in sync:\n${info}`);
      await sleep(100);
    }
  }

  /** The master's port as the first answering Sentinel names it (frozen ones are not asked). */
  async masterPort(): Promise<number> {
    for (const port of this.sentinelPorts) {
      if (this.frozenSentinels.has(port)) continue;
      try {
        const addr = await withClient(
          port,
          (s) =>
            s.call('SENTINEL', 'get-master-addr-by-name', this.masterName) as Promise<
              [string, string] | null
            >,
        );
        if (addr) return Number(addr[1]);
      } catch {
        // try the next Sentinel
      }
    }
    throw new Error('no Sentinel names a master');
  }

  private async waitForSentinelsToAgree(masterPort: number, replicas: number): Promise<void> {
    // Sentinels find each other through hello messages every 2 s; a loaded machine (the
    // whole e2e run on 2 cores) has been seen to need more than 15 s.
    const deadline = Date.now() + 30_000;
    for (;;) {
      const info = await withClient(
        this.sentinelPorts[0],
        (s) => s.call('SENTINEL', 'master', this.masterName) as Promise<string[]>,
      ).catch(() => [] as string[]);
      const field = (name: string) => info[info.indexOf(name) + 1];
      if (
        Number(field('port')) === masterPort &&
        Number(field('num-other-sentinels')) >= 2 &&
        Number(field('num-slaves')) >= replicas
      ) {
        return;
      }
      if (Date.now() > deadline) throw new Error('Sentinels did not discover each other');
      await sleep(200);
    }
  }

  /**
   * SIGKILLs the current master (a crash: its connections are reset at once) and waits until
   * the Sentinels name a new one that answers as a master.
   */
  async killMaster(): Promise<Failover> {
    return this.failover(async (child) => {
      await killGroup(child);
    });
  }

  /**
   * SIGSTOPs the current master, as a network partition would: its connections stay open and
   * nothing answers on them. Waits for the new master like killMaster; `resume()` SIGCONTs the
   * old one, which the Sentinels then turn into a replica of the new master.
   */
  async freezeMaster(): Promise<Failover & { resume: () => Promise<void> }> {
    let frozen: ChildProcess | undefined;
    const result = await this.failover(async (child) => {
      frozen = child;
      signalGroup(child, 'SIGSTOP');
    });
    return {
      ...result,
      resume: async () => {
        if (frozen) signalGroup(frozen, 'SIGCONT');
        await waitForPort(result.oldMasterPort, 10_000, frozen!);
      },
    };
  }

  /**
   * SIGSTOPs the Sentinel at `index` of `sentinels`: it accepts connections (the kernel does)
   * and answers nothing. Returns the function that SIGCONTs it.
   */
  freezeSentinel(index: number): () => void {
    const port = this.sentinelPorts[index];
    const child = this.sentinelProcs[index];
    this.frozenSentinels.add(port);
    signalGroup(child, 'SIGSTOP');
    return () => {
      signalGroup(child, 'SIGCONT');
      this.frozenSentinels.delete(port);
    };
  }

  private async failover(strike: (master: ChildProcess) => Promise<void>): Promise<Failover> {
    const old = await this.masterPort();
    // A replica in sync to promote: the previous failover's replicas may still be re-syncing.
    await this.waitForReplicas(old, 1);
    const child = this.servers.get(old);
    if (!child) throw new Error(`the master on ${old} is not one of this group's servers`);
    const started = Date.now();
    await strike(child);
    const deadline = started + 30_000;
    for (;;) {
      const now = await this.masterPort().catch(() => old);
      if (now !== old) {
        const role = await withClient(now, (r) => r.call('ROLE') as Promise<unknown[]>).catch(
          () => [],
        );
        if (role[0] === 'master') {
          return {
            struckAt: started,
            failoverMs: Date.now() - started,
            oldMasterPort: old,
            newMasterPort: now,
          };
        }
      }
      if (Date.now() > deadline) throw new Error('no failover within 30 s');
      await sleep(50);
    }
  }

  /**
   * The application's connections on the server at `port`: every client but the Sentinels'
   * (named `sentinel-…`), replication links and this query's own connection.
   */
  async applicationClients(port: number): Promise<string[]> {
    const list = await withClient(port, (r) => r.call('CLIENT', 'LIST') as Promise<string>);
    return list
      .split('\n')
      .filter(Boolean)
      .filter((line) => {
        const field = (name: string) => new RegExp(`(?:^| )${name}=(\\S*)`).exec(line)?.[1] ?? '';
        return (
          !field('name').startsWith('sentinel-') &&
          !/[SM]/.test(field('flags')) &&
          !field('cmd').startsWith('client')
        );
      });
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    await Promise.all([...this.sentinelProcs, ...this.servers.values()].map(killGroup));
    this.sentinelProcs.length = 0;
    this.servers.clear();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
