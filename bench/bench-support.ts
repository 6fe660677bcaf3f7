import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { cpus } from 'node:os';
import autocannon, { RequestData } from 'autocannon';

export interface LoadResult {
  name: string;
  requestsPerSec: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /**
   * CPU time of the server process per request over the measured load (ms; /proc, user +
   * system), when its pid was given. Far steadier than req/s on a shared machine: another
   * job's load slows a round's throughput, but hardly what each request costs the server.
   */
  cpuMs?: number;
  /**
   * The user-space part of cpuMs (/proc utime): what our code, Node and V8 spend, without
   * the kernel's socket work, whose cost per write a virtual machine's host can change from
   * one round to the next while the code's stays put.
   */
  userCpuMs?: number;
  /**
   * CPU time of all PostgreSQL processes per request over the same load (ms), and of this
   * load generator: where the rest of the machine's two cores go. A change that moves work
   * from the API into PostgreSQL shows here.
   */
  dbCpuMs?: number;
  clientCpuMs?: number;
}

/** CPU time (ms) of a process from /proc (utime + stime, clock ticks of 10 ms); 0 if gone. */
export function procCpuMs(pid: number): number {
  const { user, system } = procCpuSplitMs(pid);
  return user + system;
}

/** A process's user and system CPU time (ms) from /proc (utime, stime); 0 if gone. */
export function procCpuSplitMs(pid: number): { user: number; system: number } {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return { user: Number(f[11]) * 10, system: Number(f[12]) * 10 };
  } catch {
    return { user: 0, system: 0 };
  }
}

/** CPU time (ms) of each PostgreSQL process on the machine (server and backends), by pid. */
export function postgresCpuMs(): Map<number, number> {
  const byPid = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres')
        byPid.set(Number(entry), procCpuMs(Number(entry)));
    } catch {
      // the process ended meanwhile
    }
  }
  return byPid;
}

/**
 * The PostgreSQL CPU time (ms) spent between two `postgresCpuMs()` readings: per process, so
 * that a backend which ended or started in between (pool connections come and go) neither
 * subtracts its whole past nor adds it.
 */
export function postgresCpuSince(before: Map<number, number>): number {
  let total = 0;
  for (const [pid, ms] of postgresCpuMs()) total += ms - (before.get(pid) ?? 0);
  return total;
}

/** True when `taskset` can pin processes to CPUs (Linux with util-linux). */
export const canPin =
  spawnSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' }).status === 0;

/**
 * On a machine with two or more cores, pins the load generator (this process) to the last
 * core; servers start pinned to core 0. Every target then gets the same single core.
 */
export function pinLoadGenerator(): boolean {
  if (!canPin) return false;
  const last = Math.max(0, cpus().length - 1);
  return (
    last > 0 &&
    spawnSync('taskset', ['-p', '-c', String(last), String(process.pid)], { stdio: 'ignore' })
      .status === 0
  );
}

/** Starts a compiled entry point as a child process and waits until `url` answers. */
export async function startProcess(
  entry: string,
  env: NodeJS.ProcessEnv,
  url: string,
  nodeFlags: string[] = [],
  pin = false,
): Promise<ChildProcess> {
  const args = [...nodeFlags, entry];
  const child = pin
    ? spawn('taskset', ['-c', '0', process.execPath, ...args], {
        env,
        stdio: ['ignore', 'ignore', 'inherit'],
      })
    : spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${entry} exited with ${child.exitCode}`);
    try {
      const res = await fetch(url);
      if (res.status < 500) return child;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`${entry} did not answer at ${url}`);
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

/** Called right before and after the measured load (after the warm-up). */
export interface MeasuredWindow {
  start(): void;
  end(): void;
}

/**
 * Node flags that load the CPU-profile preload (bench/cpu-profile-preload.ts) when
 * BENCH_CPU_PROFILE names a directory, and the window that profiles one measured load of a
 * server (SIGWINCH before and after it).
 */
export function cpuProfiling(dist: string): {
  flags: string[];
  window(child: ChildProcess): MeasuredWindow | undefined;
} {
  const dir = process.env.BENCH_CPU_PROFILE;
  if (!dir) return { flags: [], window: () => undefined };
  return {
    flags: ['-r', `${dist}/bench/cpu-profile-preload.js`],
    window: (child) => ({
      start: () => child.kill('SIGWINCH'),
      end: () => child.kill('SIGWINCH'),
    }),
  };
}

/** Drives `url` with autocannon for `seconds` (after a short warm-up) and summarizes. */
export async function load(
  name: string,
  url: string,
  headers: Record<string, string>,
  seconds: number,
  connections: number,
  warmupSeconds = 2,
  around?: MeasuredWindow,
  serverPid?: number,
  varyHeaders?: () => Record<string, string>,
): Promise<LoadResult> {
  // With varyHeaders, every request gets headers of its own (e.g. a different wrong key).
  const requests = varyHeaders
    ? [
        {
          setupRequest: (req: RequestData) => ({
            ...req,
            headers: { ...req.headers, ...varyHeaders() },
          }),
        },
      ]
    : undefined;
  if (warmupSeconds > 0) {
    await autocannon({ url, headers, connections, duration: warmupSeconds, requests });
  }
  around?.start();
  const cpu0 = serverPid ? procCpuSplitMs(serverPid) : { user: 0, system: 0 };
  const db0 = postgresCpuMs();
  const client0 = process.cpuUsage();
  const r = await autocannon({ url, headers, connections, duration: seconds, requests });
  const client = process.cpuUsage(client0);
  const db = postgresCpuSince(db0);
  const cpu1 = serverPid ? procCpuSplitMs(serverPid) : { user: 0, system: 0 };
  around?.end();
  const perRequest = (ms: number) => Math.round((ms / r.requests.total) * 1000) / 1000;
  return {
    name,
    requestsPerSec: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
    ...(serverPid && r.requests.total > 0
      ? {
          cpuMs: perRequest(cpu1.user + cpu1.system - cpu0.user - cpu0.system),
          userCpuMs: perRequest(cpu1.user - cpu0.user),
        }
      : {}),
    ...(r.requests.total > 0
      ? {
          dbCpuMs: perRequest(db),
          clientCpuMs: perRequest((client.user + client.system) / 1000),
        }
      : {}),
  };
}

export function printTable(rows: LoadResult[]): void {
  console.log('');
  console.log(
    '| target | req/s | p50 ms | p99 ms | server CPU ms / request | of which user space | PostgreSQL CPU ms / request | load generator CPU ms / request | non-2xx | errors |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    console.log(
      `| ${r.name} | ${r.requestsPerSec} | ${r.p50} | ${r.p99} | ${r.cpuMs ?? '—'} | ${r.userCpuMs ?? '—'} | ${r.dbCpuMs ?? '—'} | ${r.clientCpuMs ?? '—'} | ${r.non2xx} | ${r.errors} |`,
    );
  }
}

/** The run with the median req/s of several rounds of one target (and the median CPU per request). */
export function median(runs: LoadResult[]): LoadResult {
  const sorted = [...runs].sort((a, b) => a.requestsPerSec - b.requestsPerSec);
  const middle = (field: 'cpuMs' | 'userCpuMs' | 'dbCpuMs' | 'clientCpuMs') => {
    const xs = runs
      .map((r) => r[field])
      .filter((c): c is number => c !== undefined)
      .sort((a, b) => a - b);
    return xs.length ? { [field]: xs[Math.floor(xs.length / 2)] } : {};
  };
  return {
    ...sorted[Math.floor(sorted.length / 2)],
    ...middle('cpuMs'),
    ...middle('userCpuMs'),
    ...middle('dbCpuMs'),
    ...middle('clientCpuMs'),
    non2xx: runs.reduce((n, r) => n + r.non2xx, 0),
    errors: runs.reduce((n, r) => n + r.errors, 0),
  };
}
