import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from 'pg';
import { freePort, waitForPort } from './processes';

const BIN = '/usr/lib/postgresql/15/bin';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A member as Patroni's REST API (`GET /cluster`) lists it. */
export interface PatroniMember {
  name: string;
  role: 'leader' | 'replica' | 'sync_standby' | string;
  state: string;
  port: number;
}

interface Node {
  name: string;
  pgPort: number;
  restPort: number;
  dir: string;
  config: string;
  /** `runuser`, whose child is Patroni (python). */
  runuser: ChildProcess | null;
}

interface Etcd {
  name: string;
  clientPort: number;
  peerPort: number;
  child: ChildProcess | null;
}

/**
 * Spawns a process in its own group, its output appended to `log`, in the log's directory (the
 * cluster's, owned by postgres). Not in the caller's: a checkout in a `mktemp -d` directory
 * (mode 0700, root's) is closed to user postgres, and Patroni's PostgreSQL then never
 * started after initdb ("could not change directory"), a hang seen only in CI's clone.
 */
function start(cmd: string, args: string[], log: string): ChildProcess {
  const child = spawn('sh', ['-c', `exec "$0" "$@" >>'${log}' 2>&1`, cmd, ...args], {
    detached: true,
    stdio: 'ignore',
    cwd: dirname(log),
  });
  child.unref();
  return child;
}

function pidsOf(text: string): number[] {
  return text
    .split(/\s+/)
    .filter(Boolean)
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0);
}

/** The direct children of `pid`. */
function childrenOf(pid: number): number[] {
  return pidsOf(spawnSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' }).stdout);
}

function signal(pids: number[], sig: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, sig);
    } catch {
      // already gone
    }
  }
}

/**
 * Three PostgreSQL 15 nodes under Patroni 3 with a three-member etcd 3.4 and HAProxy in front
 * (one address for the primary, checked on Patroni's `/primary`; one for the standbys, on
 * `/replica?lag=16MB`), all from the machine's Debian packages, on free loopback ports in one temporary
 * directory. Patroni runs as user postgres (the PostgreSQL binaries refuse root), with
 * synchronous_mode (one synchronous standby) and short timings so a failover takes seconds.
 * Nothing here decides a failover: Patroni and etcd do. `stop()` kills exactly the processes
 * it started (and their PostgreSQL servers) and removes the directory.
 */
export class PatroniCluster {
  private haproxy: ChildProcess | null = null;
  private constructor(
    readonly dir: string,
    readonly nodes: Node[],
    readonly etcd: Etcd[],
    readonly primaryPort: number,
    readonly replicaPort: number,
  ) {}

  /**
   * Starts a cluster; a start that fails (a bootstrap seen to hang once on a loaded machine)
   * is reported, stopped, and tried once more on new ports and a new directory.
   */
  static async start(): Promise<PatroniCluster> {
    try {
      return await PatroniCluster.startOnce();
    } catch (err) {
      console.warn(`Patroni cluster did not start; trying once more.\n${(err as Error).message}`);
      return PatroniCluster.startOnce();
    }
  }

  private static async startOnce(): Promise<PatroniCluster> {
    const missing = ['patroni', 'etcd', 'etcdctl', 'haproxy'].filter(
      (cmd) =>
        spawnSync('sh', ['-c', `command -v ${cmd} || test -x /usr/sbin/${cmd}`]).status !== 0,
    );
    if (missing.length)
      throw new Error(
        `${missing.join(', ')} not installed: apt-get install patroni etcd-server etcd-client haproxy (.ci/run does)`,
      );
    const dir = mkdtempSync(join(tmpdir(), 'seo-patroni-'));
    const ports = async () => freePort();
    const etcd: Etcd[] = [];
    for (let i = 1; i <= 3; i++)
      etcd.push({ name: `e${i}`, clientPort: await ports(), peerPort: await ports(), child: null });
    const nodes: Node[] = [];
    for (let i = 1; i <= 3; i++) {
      const name = `pg${i}`;
      nodes.push({
        name,
        pgPort: await ports(),
        restPort: await ports(),
        dir: join(dir, name),
        config: join(dir, `${name}.yml`),
        runuser: null,
      });
    }
    const cluster = new PatroniCluster(dir, nodes, etcd, await ports(), await ports());
    try {
      cluster.startEtcd();
      await Promise.all(etcd.map((e) => waitForPort(e.clientPort, 20_000)));
      cluster.writeConfigs();
      spawnSync('chown', ['-R', 'postgres:postgres', dir]);
      // The first node bootstraps; the others clone it once it leads.
      cluster.startNode(nodes[0].name);
      await cluster.waitFor((m) => m.some((x) => x.name === 'pg1' && x.role === 'leader'), 120_000);
      cluster.startNode(nodes[1].name);
      cluster.startNode(nodes[2].name);
      await cluster.waitFor(
        (m) =>
          m.filter((x) => x.state === 'running' || x.state === 'streaming').length === 3 &&
          // synchronous_mode: Patroni names one synchronous standby once the replicas stream.
          m.some((x) => x.role === 'sync_standby'),
        90_000,
      );
      cluster.startHaproxy();
      await waitForPort(cluster.primaryPort, 10_000);
      // HAProxy starts every server as up until its checks say otherwise (2 × 500 ms).
      await sleep(2_500);
      await cluster.waitForWrites(30_000);
      return cluster;
    } catch (err) {
      // What Patroni said, before its directory goes with stop().
      const logs = cluster.logTails();
      await cluster.stop();
      throw new Error(`${(err as Error).message}\n${logs}`);
    }
  }

  /** The last lines each node's Patroni and HAProxy logged (no tracebacks), for a failure's message. */
  logTails(lines = 40): string {
    return [...this.nodes.map((n) => n.name), 'haproxy']
      .map((name) => {
        try {
          const said = readFileSync(join(this.dir, `${name}.log`), 'utf8')
            .split('\n')
            // Python tracebacks of aborted REST calls (ours and HAProxy's) are noise here.
            .filter(
              (l) =>
                l.trim() !== '' &&
                !/Exception happened|Traceback|^\s+(File |\^)|^\s+self\.|^\w+Error: /.test(l),
            );
          return `--- ${name}\n${said.slice(-lines).join('\n')}`;
        } catch {
          return `--- ${name}: no log`;
        }
      })
      .join('\n');
  }

  private startEtcd(): void {
    const initial = this.etcd.map((e) => `${e.name}=http://127.0.0.1:${e.peerPort}`).join(',');
    for (const e of this.etcd) this.spawnEtcd(e, initial);
  }

  private spawnEtcd(e: Etcd, initial: string): void {
    const client = `http://127.0.0.1:${e.clientPort}`;
    const peer = `http://127.0.0.1:${e.peerPort}`;
    e.child = start(
      'etcd',
      [
        '--name',
        e.name,
        '--data-dir',
        join(this.dir, `etcd-${e.name}`),
        '--listen-client-urls',
        client,
        '--advertise-client-urls',
        client,
        '--listen-peer-urls',
        peer,
        '--initial-advertise-peer-urls',
        peer,
        '--initial-cluster',
        initial,
        '--initial-cluster-state',
        'new',
        '--initial-cluster-token',
        `seo-${this.primaryPort}`,
        '--heartbeat-interval',
        '100',
        '--election-timeout',
        '1000',
        // Patroni's `etcd` DCS speaks the v2 API (see writeConfigs).
        '--enable-v2=true',
      ],
      join(this.dir, `etcd-${e.name}.log`),
    );
  }

  private writeConfigs(): void {
    const hosts = this.etcd.map((e) => `127.0.0.1:${e.clientPort}`).join(',');
    for (const n of this.nodes) {
      writeFileSync(
        n.config,
        [
          'scope: seo',
          `name: ${n.name}`,
          'restapi:',
          `  listen: 127.0.0.1:${n.restPort}`,
          `  connect_address: 127.0.0.1:${n.restPort}`,
          // etcd's v2 API, not `etcd3`: Debian's Patroni 3.0.2 renews the leader key over etcd3
          // without a compare-and-swap, so a frozen old primary overwrites its successor's key
          // when it thaws and the successor's commits are rewound away (fixed upstream after 3.0.2;
          // decision 0003). Over v2 the renewal is conditional on still holding the key.
          'etcd:',
          `  hosts: ${hosts}`,
          'bootstrap:',
          '  dcs:',
          '    ttl: 10',
          '    loop_wait: 2',
          '    retry_timeout: 4',
          '    maximum_lag_on_failover: 1048576',
          '    synchronous_mode: true',
          '    postgresql:',
          '      use_pg_rewind: true',
          '      parameters:',
          '        wal_level: replica',
          "        hot_standby: 'on'",
          '        max_wal_senders: 10',
          '        max_replication_slots: 10',
          "        wal_log_hints: 'on'",
          "        fsync: 'off'",
          '        shared_buffers: 32MB',
          '        max_connections: 100',
          '  initdb:',
          '    - encoding: UTF8',
          // Test data: initdb need not fsync (it can take a minute on a busy disk).
          '    - no-sync',
          '    - auth: trust',
          '  pg_hba:',
          '    - host all all 127.0.0.1/32 trust',
          '    - host replication all 127.0.0.1/32 trust',
          'postgresql:',
          `  listen: 127.0.0.1:${n.pgPort}`,
          `  connect_address: 127.0.0.1:${n.pgPort}`,
          `  data_dir: ${n.dir}`,
          `  bin_dir: ${BIN}`,
          `  pgpass: ${join(this.dir, `${n.name}.pgpass`)}`,
          '  authentication:',
          '    superuser:',
          '      username: postgres',
          '    replication:',
          '      username: postgres',
          '  parameters:',
          `    unix_socket_directories: '${this.dir}'`,
          '',
        ].join('\n'),
      );
    }
  }

  private startHaproxy(): void {
    const servers = (check: string) => [
      `    option httpchk GET /${check}`,
      '    http-check expect status 200',
      '    default-server inter 500ms fall 2 rise 1 on-marked-down shutdown-sessions',
      ...this.nodes.map(
        (n) => `    server ${n.name} 127.0.0.1:${n.pgPort} check port ${n.restPort}`,
      ),
    ];
    const config = join(this.dir, 'haproxy.cfg');
    writeFileSync(
      config,
      [
        'global',
        '    maxconn 2000',
        'defaults',
        '    mode tcp',
        '    timeout connect 2s',
        '    timeout client 30m',
        '    timeout server 30m',
        '    timeout check 1s',
        'listen primary',
        `    bind 127.0.0.1:${this.primaryPort}`,
        ...servers('primary'),
        'listen replicas',
        `    bind 127.0.0.1:${this.replicaPort}`,
        '    balance roundrobin',
        // As in docker-compose.yml: a replica far behind (just rejoined) serves no reads.
        ...servers('replica?lag=16MB'),
        '',
      ].join('\n'),
    );
    this.haproxy = start('haproxy', ['-f', config], join(this.dir, 'haproxy.log'));
  }

  /** Starts (or restarts) a node's Patroni, which starts its PostgreSQL. */
  startNode(name: string): void {
    const n = this.node(name);
    n.runuser = start(
      'runuser',
      ['-u', 'postgres', '--', 'patroni', n.config],
      join(this.dir, `${n.name}.log`),
    );
  }

  primaryUrl(db: string): string {
    return `postgres://postgres@127.0.0.1:${this.primaryPort}/${db}`;
  }

  replicaUrl(db: string): string {
    return `postgres://postgres@127.0.0.1:${this.replicaPort}/${db}`;
  }

  /** Creates a database through the primary address; its URL. */
  async createDatabase(db: string): Promise<string> {
    const c = new Client({ connectionString: this.primaryUrl('postgres') });
    await c.connect();
    try {
      await c.query(`CREATE DATABASE "${db}"`);
    } finally {
      await c.end();
    }
    return this.primaryUrl(db);
  }

  /** The members as any answering Patroni sees them; [] when none answers. */
  async members(): Promise<PatroniMember[]> {
    for (const n of this.nodes) {
      try {
        const res = await fetch(`http://127.0.0.1:${n.restPort}/cluster`, {
          signal: AbortSignal.timeout(1_000),
        });
        if (!res.ok) continue;
        const body = (await res.json()) as { members?: PatroniMember[] };
        return body.members ?? [];
      } catch {
        // this node's REST API is down or stopped
      }
    }
    return [];
  }

  async leader(): Promise<string | null> {
    return (await this.members()).find((m) => m.role === 'leader')?.name ?? null;
  }

  async waitFor(ok: (m: PatroniMember[]) => boolean, timeoutMs: number): Promise<PatroniMember[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const m = await this.members();
      if (ok(m)) return m;
      if (Date.now() > deadline)
        throw new Error(
          `Patroni cluster not as expected: ${JSON.stringify(m)}\n${this.logTails()}`,
        );
      await sleep(250);
    }
  }

  /** Resolves once a write through the primary address commits. */
  async waitForWrites(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const c = new Client({
        connectionString: this.primaryUrl('postgres'),
        connectionTimeoutMillis: 1_000,
      });
      const ok = await c
        .connect()
        .then(() => c.query('CREATE TEMP TABLE w (i int); INSERT INTO w VALUES (1)'))
        .then(
          () => true,
          () => false,
        );
      await c.end().catch(() => undefined);
      if (ok) return;
      if (Date.now() > deadline) throw new Error('no write through the primary address');
      await sleep(200);
    }
  }

  private node(name: string): Node {
    const n = this.nodes.find((x) => x.name === name);
    if (!n) throw new Error(`no node ${name}`);
    return n;
  }

  /** Patroni's own process of a node (the child of runuser), if running. */
  private patroniPids(n: Node): number[] {
    const runuser = n.runuser?.pid;
    if (!runuser) return [];
    const pids: number[] = [];
    for (const sh of [runuser, ...childrenOf(runuser)]) pids.push(sh, ...childrenOf(sh));
    return [...new Set(pids)];
  }

  /** The postmaster of a node and every process it started. */
  private postgresPids(n: Node): number[] {
    let postmaster: number;
    try {
      postmaster = Number(readFileSync(join(n.dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    } catch {
      return [];
    }
    if (!Number.isInteger(postmaster) || postmaster <= 0) return [];
    return [postmaster, ...childrenOf(postmaster)];
  }

  /** SIGKILLs a node: its Patroni and its PostgreSQL, as a machine that dies. */
  killNode(name: string): void {
    const n = this.node(name);
    signal(this.nodePids(n), 'SIGKILL');
    n.runuser = null;
  }

  /** Every process of a node: found from the processes started and by command line. */
  private nodePids(n: Node): number[] {
    const byLine = (pattern: string) =>
      pidsOf(spawnSync('pgrep', ['-f', '--', pattern], { encoding: 'utf8' }).stdout);
    const postmasters = byLine(`-D ${n.dir}`);
    return [
      ...new Set([
        ...this.patroniPids(n),
        ...this.postgresPids(n),
        ...byLine(`patroni ${n.config}`),
        ...postmasters,
        ...postmasters.flatMap(childrenOf),
      ]),
    ].filter((pid) => pid !== process.pid);
  }

  /**
   * SIGSTOPs (true) or SIGCONTs (false) a whole node, as a partition that heals. A frozen node
   * must stop answering its REST API, or the fault did not happen and this throws.
   */
  async freezeNode(name: string, frozen: boolean): Promise<void> {
    const n = this.node(name);
    const pids = this.nodePids(n);
    signal(pids, frozen ? 'SIGSTOP' : 'SIGCONT');
    if (!frozen) return;
    const answers = await fetch(`http://127.0.0.1:${n.restPort}/health`, {
      signal: AbortSignal.timeout(1_000),
    }).then(
      () => true,
      () => false,
    );
    if (answers) throw new Error(`${name} still answers after SIGSTOP of ${pids.join(' ')}`);
  }

  /** SIGKILLs the etcd member that leads; its name. */
  async killEtcdLeader(): Promise<string> {
    const endpoints = this.etcd
      .filter((e) => e.child)
      .map((e) => `127.0.0.1:${e.clientPort}`)
      .join(',');
    const out = spawnSync(
      'etcdctl',
      ['--endpoints', endpoints, 'endpoint', 'status', '-w', 'json'],
      {
        encoding: 'utf8',
        env: { ...process.env, ETCDCTL_API: '3' },
        timeout: 10_000,
      },
    ).stdout;
    const statuses = JSON.parse(out || '[]') as Array<{
      Endpoint: string;
      Status: { header: { member_id: number | string }; leader: number | string };
    }>;
    const leading = statuses.find(
      (s) => String(s.Status.header.member_id) === String(s.Status.leader),
    );
    if (!leading) throw new Error(`no etcd leader: ${out}`);
    const e = this.etcd.find((x) => leading.Endpoint.endsWith(`:${x.clientPort}`))!;
    signal([e.child!.pid!, ...childrenOf(e.child!.pid!)], 'SIGKILL');
    e.child = null;
    return e.name;
  }

  async stop(): Promise<void> {
    const pids: number[] = [];
    for (const n of this.nodes) pids.push(...this.nodePids(n));
    for (const e of this.etcd) if (e.child?.pid) pids.push(e.child.pid, ...childrenOf(e.child.pid));
    if (this.haproxy?.pid) pids.push(this.haproxy.pid, ...childrenOf(this.haproxy.pid));
    signal(pids, 'SIGCONT');
    signal(pids, 'SIGKILL');
    await sleep(300);
    // PATRONI_CLUSTER_KEEP=1 keeps the directory (the logs of every node) to read a failure.
    if (process.env.PATRONI_CLUSTER_KEEP === '1')
      console.log(`Patroni cluster kept in ${this.dir}`);
    else rmSync(this.dir, { recursive: true, force: true });
  }
}
