import { ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import { Client } from 'pg';
import { freePort, waitForPort } from '../helpers/processes';

/** A throw-away redis-server on a free port (no persistence), stopped and restarted at will. */
export class ChaosRedis {
  private child: ChildProcess | null = null;
  private constructor(readonly port: number) {}

  static async start(): Promise<ChaosRedis> {
    const r = new ChaosRedis(await freePort());
    await r.up();
    return r;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async up(): Promise<void> {
    const child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    this.child = child;
    await waitForPort(this.port);
  }

  /** SIGKILL, as a crash: the port refuses connections until up(). */
  async down(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  }
}

/**
 * A TCP proxy in front of PostgreSQL. `cut()` drops every connection and refuses new ones
 * (as a stopped server does); `restore()` listens again on the same port.
 */
export class PgProxy {
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  private constructor(
    readonly port: number,
    private readonly target: { host: string; port: number },
  ) {}

  static async start(targetUrl: string): Promise<PgProxy> {
    const u = new URL(targetUrl);
    const p = new PgProxy(await freePort(), { host: u.hostname, port: Number(u.port || 5432) });
    await p.restore();
    return p;
  }

  /** `url` with its host and port replaced by the proxy's. */
  via(url: string): string {
    const u = new URL(url);
    u.hostname = '127.0.0.1';
    u.port = String(this.port);
    return u.toString();
  }

  restore(): Promise<void> {
    const server = net.createServer((client) => {
      const upstream = net.connect(this.target.port, this.target.host);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    this.server = server;
    return new Promise((resolve) => server.listen(this.port, '127.0.0.1', () => resolve()));
  }

  cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    return new Promise((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }
}

export interface Sample {
  start: number;
  end: number;
  status: number;
  code?: string;
  retryAfter: string | null;
}

/**
 * `concurrency` loops calling `url(i)` (round robin over the API processes) until stop() is
 * called; every answer is recorded with its timing.
 */
export function load(
  urls: string[],
  headers: Record<string, string>,
  concurrency: number,
  pauseMs = 5,
): { samples: Sample[]; stop: () => Promise<void> } {
  const samples: Sample[] = [];
  let running = true;
  let n = 0;
  const loop = async () => {
    while (running) {
      const url = urls[n++ % urls.length];
      const start = Date.now();
      try {
        const res = await fetch(url, { headers, signal: AbortSignal.timeout(15_000) });
        const text = await res.text();
        let code: string | undefined;
        if (res.status >= 400) {
          try {
            code = (JSON.parse(text) as { error?: { code?: string } }).error?.code;
          } catch {
            code = 'NOT_JSON';
          }
        }
        samples.push({
          start,
          end: Date.now(),
          status: res.status,
          code,
          retryAfter: res.headers.get('retry-after'),
        });
      } catch {
        samples.push({ start, end: Date.now(), status: 0, retryAfter: null });
      }
      if (pauseMs) await new Promise((r) => setTimeout(r, pauseMs));
    }
  };
  const loops = Array.from({ length: concurrency }, loop);
  return {
    samples,
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}

/** The month's meter count of an account, read straight from PostgreSQL. */
export async function meterUsed(databaseUrl: string, accountId: number): Promise<number> {
  const c = new Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    const r = await c.query<{ used: string | null }>(
      'SELECT sum(used) AS used FROM api_call_meter WHERE account_id = $1',
      [accountId],
    );
    return Number(r.rows[0]?.used ?? 0);
  } finally {
    await c.end();
  }
}

export async function sqlQuery<T extends Record<string, unknown>>(
  databaseUrl: string,
  text: string,
  params: unknown[],
): Promise<T[]> {
  const c = new Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    return (await c.query<T>(text, params)).rows;
  } finally {
    await c.end();
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
