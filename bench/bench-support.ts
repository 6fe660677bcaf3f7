import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { cpus } from 'node:os';
import autocannon from 'autocannon';

export interface LoadResult {
  name: string;
  requestsPerSec: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
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

/** Drives `url` with autocannon for `seconds` (after a short warm-up) and summarizes. */
export async function load(
  name: string,
  url: string,
  headers: Record<string, string>,
  seconds: number,
  connections: number,
  warmupSeconds = 2,
): Promise<LoadResult> {
  if (warmupSeconds > 0) await autocannon({ url, headers, connections, duration: warmupSeconds });
  const r = await autocannon({ url, headers, connections, duration: seconds });
  return {
    name,
    requestsPerSec: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
  };
}

export function printTable(rows: LoadResult[]): void {
  console.log('');
  console.log('| target | req/s | p50 ms | p99 ms | non-2xx | errors |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    console.log(
      `| ${r.name} | ${r.requestsPerSec} | ${r.p50} | ${r.p99} | ${r.non2xx} | ${r.errors} |`,
    );
  }
}

/** The run with the median req/s of several rounds of one target. */
export function median(runs: LoadResult[]): LoadResult {
  const sorted = [...runs].sort((a, b) => a.requestsPerSec - b.requestsPerSec);
  return {
    ...sorted[Math.floor(sorted.length / 2)],
    non2xx: runs.reduce((n, r) => n + r.non2xx, 0),
    errors: runs.reduce((n, r) => n + r.errors, 0),
  };
}
