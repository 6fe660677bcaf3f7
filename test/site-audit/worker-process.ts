import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const DIST_WORKER = path.join(ROOT, 'dist/apps/worker/src/main.js');
const SOURCE_WORKER = path.join(ROOT, 'apps/worker/src/main.ts');

function newestSourceMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSourceMtime(p));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts'))
      newest = Math.max(newest, fs.statSync(p).mtimeMs);
  }
  return newest;
}

/** True when dist holds a worker built after the last change to apps/ and libs/. */
export function distWorkerIsFresh(): boolean {
  if (!fs.existsSync(DIST_WORKER)) return false;
  const built = fs.statSync(DIST_WORKER).mtimeMs;
  return ['apps', 'libs'].every((d) => newestSourceMtime(path.join(ROOT, d)) <= built);
}

/**
 * Runs apps/worker/src/main.ts from the TypeScript sources: every .ts file is transpiled on
 * require with the project's own compiler options (typescript.transpileModule, the same
 * transpile-only step ts-jest uses for the in-process tests) and @app/* aliases map to
 * libs/<name>/src. Used when dist is missing or older than the sources, so the test never
 * rebuilds (and never deletes) the shared dist directory.
 */
const FROM_SOURCES = `
const ts = require('typescript');
const Module = require('module');
const path = require('path');
const fs = require('fs');
const root = ${JSON.stringify(ROOT)};
const cfg = ts.readConfigFile(path.join(root, 'tsconfig.json'), ts.sys.readFile).config;
const { options } = ts.convertCompilerOptionsFromJson(cfg.compilerOptions, root);
const compilerOptions = { ...options, module: ts.ModuleKind.CommonJS, sourceMap: false, inlineSourceMap: true,
  inlineSources: false, declaration: false, noEmit: false, isolatedModules: true };
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, parent, isMain, opts) {
  const m = /^@app\\/([a-z-]+)(\\/.*)?$/.exec(request);
  if (m) request = path.join(root, 'libs', m[1], 'src', m[2] || '');
  return resolve.call(this, request, parent, isMain, opts);
};
require.extensions['.ts'] = function (module, filename) {
  const out = ts.transpileModule(fs.readFileSync(filename, 'utf8'), { compilerOptions, fileName: filename });
  module._compile(out.outputText, filename);
};
require(${JSON.stringify(SOURCE_WORKER)});
`;

export interface WorkerProcess {
  child: ChildProcess;
  /** 'dist' (the compiled worker) or 'sources' (transpiled on the fly). */
  mode: 'dist' | 'sources';
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /**
   * Resolves once `isReady` says so (logs are written to stdout in 4 KiB chunks and flushed
   * at exit, so they cannot tell when the worker is up; the queue's worker count can).
   */
  ready: (isReady: () => Promise<boolean>, timeoutMs?: number) => Promise<void>;
}

/** Starts the worker process (`npm run start:worker` when dist is fresh) with extra env. */
export function spawnWorker(env: Record<string, string>): WorkerProcess {
  const mode = distWorkerIsFresh() ? 'dist' : 'sources';
  const args = mode === 'dist' ? [DIST_WORKER] : ['-e', FROM_SOURCES];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const ready = async (isReady: () => Promise<boolean>, timeoutMs = 60_000) => {
    const deadline = Date.now() + timeoutMs;
    let done = false;
    void exited.then(() => (done = true));
    while (!(await isReady())) {
      if (done) throw new Error(`worker exited before it was ready:\n${out}`);
      if (Date.now() > deadline) throw new Error(`worker not ready after ${timeoutMs} ms:\n${out}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  return { child, mode, output: () => out, exited, ready };
}
