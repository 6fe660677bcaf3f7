import { spawnSync } from 'node:child_process';
import { appendFileSync, chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { freePort } from './processes';

const BIN = '/usr/lib/postgresql/15/bin';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs a PostgreSQL binary as user postgres (they refuse root); throws with its output. */
function asPostgres(tool: string, args: string[]): void {
  const r = spawnSync('runuser', ['-u', 'postgres', '--', join(BIN, tool), ...args], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (r.status !== 0) {
    throw new Error(`${tool} ${args.join(' ')} failed (${r.status}): ${r.stdout}${r.stderr}`);
  }
}

async function query<T extends Record<string, unknown>>(
  url: string,
  text: string,
  params: unknown[] = [],
): Promise<T[]> {
  const c = new Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  await c.connect();
  try {
    return (await c.query<T>(text, params)).rows;
  } finally {
    await c.end();
  }
}

/**
 * A PostgreSQL 15 primary and a streaming hot standby made with the machine's binaries
 * (`initdb`, `pg_basebackup -R`, `pg_ctl`, as user postgres), on free loopback ports, in one
 * temporary directory, trust authentication on 127.0.0.1, no fsync (test data).
 * `stop()` stops both servers immediately and removes the directory.
 */
export class PgCluster {
  private standbyRunning = false;
  private primaryRunning = false;

  private constructor(
    private readonly dir: string,
    readonly primaryPort: number,
    readonly standbyPort: number,
  ) {}

  static async start(): Promise<PgCluster> {
    const dir = mkdtempSync(join(tmpdir(), 'seo-pg-'));
    chownSync(dir, uid('postgres'), gid('postgres'));
    const cluster = new PgCluster(dir, await freePort(), await freePort());
    try {
      const primary = join(dir, 'primary');
      asPostgres('initdb', ['-D', primary, '-A', 'trust', '-U', 'postgres', '--no-sync']);
      appendFileSync(
        join(primary, 'postgresql.conf'),
        [
          '',
          `port = ${cluster.primaryPort}`,
          "listen_addresses = '127.0.0.1'",
          `unix_socket_directories = '${dir}'`,
          'wal_level = replica',
          'max_wal_senders = 5',
          'wal_keep_size = 128MB',
          'hot_standby = on',
          'fsync = off',
          'full_page_writes = off',
          'shared_buffers = 32MB',
          '',
        ].join('\n'),
      );
      asPostgres('pg_ctl', ['-D', primary, '-l', join(dir, 'primary.log'), '-w', 'start']);
      cluster.primaryRunning = true;
      const standby = join(dir, 'standby');
      asPostgres('pg_basebackup', [
        '-h',
        '127.0.0.1',
        '-p',
        String(cluster.primaryPort),
        '-U',
        'postgres',
        '-D',
        standby,
        '-R',
        '-X',
        'stream',
        '--no-sync',
      ]);
      appendFileSync(join(standby, 'postgresql.auto.conf'), `port = ${cluster.standbyPort}\n`);
      await cluster.startStandby();
      return cluster;
    } catch (err) {
      await cluster.stop();
      throw err;
    }
  }

  primaryUrl(db: string): string {
    return `postgres://postgres@127.0.0.1:${this.primaryPort}/${db}`;
  }

  standbyUrl(db: string): string {
    return `postgres://postgres@127.0.0.1:${this.standbyPort}/${db}`;
  }

  /** Creates a database on the primary; its URL. */
  async createDatabase(name: string): Promise<string> {
    await query(this.primaryUrl('postgres'), `CREATE DATABASE "${name}"`);
    return this.primaryUrl(name);
  }

  /** Waits until the standby has replayed everything the primary wrote so far. */
  async waitForReplay(timeoutMs = 30_000): Promise<void> {
    const [{ lsn }] = await query<{ lsn: string }>(
      this.primaryUrl('postgres'),
      'SELECT pg_current_wal_lsn()::text AS lsn',
    );
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const [row] = await query<{ done: boolean }>(
        this.standbyUrl('postgres'),
        'SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS done',
        [lsn],
      ).catch(() => [{ done: false }]);
      if (row.done) return;
      if (Date.now() > deadline) throw new Error('the standby did not catch up');
      await sleep(50);
    }
  }

  /** Pauses (true) or resumes (false) WAL replay on the standby: it falls behind meanwhile. */
  async pauseReplay(paused: boolean): Promise<void> {
    await query(
      this.standbyUrl('postgres'),
      paused ? 'SELECT pg_wal_replay_pause()' : 'SELECT pg_wal_replay_resume()',
    );
  }

  /** Stops the standby at once (as a crash). */
  async stopStandby(): Promise<void> {
    if (!this.standbyRunning) return;
    asPostgres('pg_ctl', ['-D', join(this.dir, 'standby'), '-m', 'immediate', '-w', 'stop']);
    this.standbyRunning = false;
  }

  async startStandby(): Promise<void> {
    asPostgres('pg_ctl', [
      '-D',
      join(this.dir, 'standby'),
      '-l',
      join(this.dir, 'standby.log'),
      '-w',
      'start',
    ]);
    this.standbyRunning = true;
    const deadline = Date.now() + 30_000;
    for (;;) {
      const ok = await query(this.standbyUrl('postgres'), 'SELECT 1').then(
        () => true,
        () => false,
      );
      if (ok) return;
      if (Date.now() > deadline) throw new Error('the standby does not accept connections');
      await sleep(100);
    }
  }

  async stop(): Promise<void> {
    for (const [name, running] of [
      ['standby', this.standbyRunning],
      ['primary', this.primaryRunning],
    ] as const) {
      if (!running) continue;
      try {
        asPostgres('pg_ctl', ['-D', join(this.dir, name), '-m', 'immediate', '-w', 'stop']);
      } catch {
        // already stopped
      }
    }
    this.standbyRunning = false;
    this.primaryRunning = false;
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function uid(user: string): number {
  return Number(spawnSync('id', ['-u', user], { encoding: 'utf8' }).stdout.trim());
}

function gid(user: string): number {
  return Number(spawnSync('id', ['-g', user], { encoding: 'utf8' }).stdout.trim());
}
