#!/usr/bin/env node
/* The quick start: build if needed, migrate, seed the demo, run API and worker together. */
'use strict';
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { checkDependencies } = require('./check-deps');

// Readable one-line logs (pino-pretty) unless LOG_FORMAT is set (LOG_FORMAT=json: JSON lines).
const childEnv = { ...process.env, LOG_FORMAT: process.env.LOG_FORMAT || 'pretty' };

const root = path.resolve(__dirname, '..');
const dist = path.join(root, 'dist');
const entries = {
  api: path.join(dist, 'apps/api/src/main.js'),
  worker: path.join(dist, 'apps/worker/src/main.js'),
  migrate: path.join(dist, 'libs/database/src/cli/migrate.js'),
  seed: path.join(dist, 'apps/api/src/cli/seed-demo.js'),
};

function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(p));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, fs.statSync(p).mtimeMs);
  }
  return newest;
}

function needsBuild() {
  if (!Object.values(entries).every((f) => fs.existsSync(f))) return true;
  const built = fs.statSync(entries.api).mtimeMs;
  return ['apps', 'libs'].some((d) => newestMtime(path.join(root, d)) > built);
}

function run(label, file, extraEnv = {}) {
  const r = spawnSync(process.execPath, [file], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], env: { ...childEnv, ...extraEnv } });
  const out = r.stdout ? r.stdout.toString() : '';
  if (r.status !== 0) {
    process.stdout.write(out);
    console.error(`${label} failed (exit ${r.status}).`);
    process.exit(r.status || 1);
  }
  return out;
}

async function main() {
  await checkDependenciesOrExit();
  buildIfNeeded();
  const demo = migrateAndSeed();
  const port = process.env.PORT || '3000';
  const base = (process.env.PUBLIC_BASE_URL || `http://localhost:${port}`).replace(/\/+$/, '');
  startApiAndWorker();
  // The banner comes last, once the API answers, so the start-up log lines do not push it
  // off the screen.
  await waitUntilReady(`http://127.0.0.1:${port}/health/live`);
  printBanner(base, demo);
}

/** PostgreSQL and Redis first: a missing one is named in one line, before any build. */
async function checkDependenciesOrExit() {
  const problems = await checkDependencies();
  if (problems.length) {
    for (const p of problems) console.error(p);
    process.exit(1);
  }
}

function buildIfNeeded() {
  if (!needsBuild()) return;
  console.log('Building...');
  const b = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
  if (b.status !== 0) process.exit(b.status || 1);
}

/** Migrates, seeds the demo and returns what the seed printed (the key and the demo user). */
function migrateAndSeed() {
  process.stdout.write(run('Migration', entries.migrate));
  const seedOut = run('Demo seed', entries.seed);
  return {
    key: (/DEMO_API_KEY=(\S+)/.exec(seedOut) || [])[1],
    userEmail: (/DEMO_USER_EMAIL=(\S+)/.exec(seedOut) || [])[1],
    userPassword: (/DEMO_USER_PASSWORD=(\S+)/.exec(seedOut) || [])[1],
  };
}

/** The API and the worker; when one exits, both are stopped (so are they on SIGINT/SIGTERM). */
const children = [];
let stopping = false;

function startApiAndWorker() {
  for (const name of ['api', 'worker']) {
    const flags = name === 'api' ? ['--max-semi-space-size=64'] : [];
    const child = spawn(process.execPath, [...flags, entries[name]], { cwd: root, stdio: 'inherit', env: childEnv });
    child.on('exit', (code, signal) => {
      if (!stopping) {
        console.error(`${name} exited (${signal || code}); stopping.`);
        stop(code || 1);
      }
    });
    children.push(child);
  }
  process.on('SIGINT', () => stop(0));
  process.on('SIGTERM', () => stop(0));
}

function stop(code) {
  if (stopping) return;
  stopping = true;
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  const timer = setTimeout(() => process.exit(code), 10000);
  timer.unref();
  Promise.all(children.map((c) => (c.exitCode !== null ? null : new Promise((r) => c.once('exit', r))))).then(() =>
    process.exit(code),
  );
}

function printBanner(base, { key, userEmail, userPassword }) {
  console.log('');
  console.log(`Search-marketing data API: ${base}/api/v1  (OpenAPI: ${base}/docs)`);
  if (key) {
    console.log(`Demo Pro account key (shown once): ${key}`);
    console.log(`Try: curl -H "Authorization: Bearer ${key}" ${base}/api/v1/usage`);
  }
  if (userEmail && userPassword) {
    console.log(`Account area: ${base}/account/sign-in  as ${userEmail} / ${userPassword} (shown once)`);
  }
  console.log('');
}

/** Polls `url` until it answers (at most 60 s; the banner is printed anyway after that). */
async function waitUntilReady(url) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  // Let the processes' last start-up lines (buffered logs) reach the terminal first.
  await new Promise((r) => setTimeout(r, 500));
}

main().catch((err) => {
  console.error(`npm start failed: ${err && err.message ? err.message : String(err)}`);
  process.exit(1);
});
