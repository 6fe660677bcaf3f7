#!/usr/bin/env node
/*
 * Scripted check of the hosted MCP endpoint with outside tooling (docs/mcp.md, "Conformance"):
 *
 *   node scripts/mcp-conformance.js          (needs PostgreSQL and Redis like npm start)
 *
 * 1. compiles into dist/ when a source is newer (tsc + tsc-alias + copy-web; never `rm -rf dist`),
 * 2. starts its own API instance: own database (seo_mcp_check_<pid>, created by the migration,
 *    dropped at the end), own Redis prefix, a free port, the sandbox data provider, an admin token,
 * 3. creates an Agency account and key through the admin API,
 * 4. runs the MCP Inspector CLI against BASE/mcp with the key header: tools/list, then
 *    tools/call of every listed tool that backs an endpoint, with the example arguments of that
 *    endpoint's @Endpoint declaration (its code sample); a listed tool that backs no declared
 *    endpoint and is not a named workflow tool fails the check,
 * 5. runs the conformance suite's `server` scenarios. The suite's client cannot send an
 *    Authorization header, so it talks to a small local proxy that adds the key (the
 *    `authorization` scenarios of this suite version are client-side ones; the OAuth flow is
 *    tested by the OAuth part's e2e tests),
 * 6. prints the results and exits non-zero when an unexpected failure shows up.
 *
 * The tools are fetched with npx at pinned versions (not devDependencies: see docs/mcp.md).
 */
'use strict';
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const crypto = require('node:crypto');
const dns = require('node:dns');

const INSPECTOR = '@modelcontextprotocol/inspector@2.12.0';
// 0.1.14 and later import fs.globSync (Node 22+); this repository runs on Node 20.
const CONFORMANCE = '@modelcontextprotocol/conformance@0.1.13';
const EXPECTED = path.join(__dirname, 'mcp-conformance-expected.yaml');

const root = path.resolve(__dirname, '..');
const dist = path.join(root, 'dist');
const entries = {
  api: path.join(dist, 'apps/api/src/main.js'),
  migrate: path.join(dist, 'libs/database/src/cli/migrate.js'),
};
const pgServer = (process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/seo_api').replace(
  /\/[^/]*$/,
  '',
);
const dbName = `seo_mcp_check_${process.pid}`;
const redisPrefix = `seomcpcheck:${process.pid}`;
const adminToken = crypto.randomBytes(24).toString('hex');
const results = [];
const record = (name, ok, detail = '') => {
  results.push({ name, ok, detail });
  console.log(`${ok ? 'PASS' : 'FAIL'}  ${name}${detail ? `  (${detail})` : ''}`);
};

function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(p));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts'))
      newest = Math.max(newest, fs.statSync(p).mtimeMs);
  }
  return newest;
}

function compileIfStale() {
  const built = fs.existsSync(entries.api) ? fs.statSync(entries.api).mtimeMs : 0;
  if (built && ['apps', 'libs'].every((d) => newestMtime(path.join(root, d)) <= built)) return;
  console.log('Compiling (tsc -p tsconfig.build.json && tsc-alias, then the page files)...');
  const tsc = spawnSync('npx', ['tsc', '-p', 'tsconfig.build.json'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (tsc.status !== 0) console.log('tsc reported errors (output still emitted); continuing.');
  const alias = spawnSync('npx', ['tsc-alias', '-p', 'tsconfig.build.json'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (alias.status !== 0) throw new Error('tsc-alias failed');
  const web = spawnSync('node', ['scripts/copy-web.js'], { cwd: root, stdio: 'inherit' });
  if (web.status !== 0) throw new Error('copying the page templates and assets failed');
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

async function waitFor(url, ms) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer within ${ms} ms`);
}

/** Like run(), without blocking the event loop (the in-process proxy must keep serving). */
function runAsync(cmd, args, env) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, env: { ...process.env, ...env } });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

function run(cmd, args, env) {
  const r = spawnSync(cmd, args, {
    cwd: root,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 300_000,
  });
  return { code: r.status, out: `${r.stdout || ''}`, err: `${r.stderr || ''}` };
}

async function admin(base, method, p, body) {
  const res = await fetch(`${base}/admin/v1${p}`, {
    method,
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`admin ${method} ${p}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

/** Forwards every request to BASE, adding the key header (the conformance client sends none). */
function authProxy(base, key) {
  const target = new URL(base);
  return http.createServer((req, res) => {
    const headers = { ...req.headers, host: target.host, authorization: `Bearer ${key}` };
    const up = http.request(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers },
      (r) => {
        res.writeHead(r.statusCode || 502, r.headers);
        r.pipe(res);
      },
    );
    up.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(up);
  });
}

/** Tools that back no single endpoint, and why the script does not call them. */
const WORKFLOW_TOOLS = {
  run_site_audit:
    'starts an audit and waits for it (POST /site-audit then GET /jobs/{job_id}); this instance runs no worker',
};

/**
 * The example arguments of each endpoint's MCP tool: the query, path and body of its code
 * sample, from the @Endpoint declarations of the compiled app (no second list here).
 */
function toolExamples() {
  require(path.join(dist, 'apps/api/src/api.module.js'));
  const { declaredEndpoints, sampleToolArgs } = require(
    path.join(dist, 'libs/gateway/src/index.js'),
  );
  const out = new Map();
  for (const { declaration: d } of declaredEndpoints()) {
    if (d.mcp) out.set(d.mcp, sampleToolArgs(d.sample));
  }
  return out;
}

/** The host of an example's `url` argument when it does not resolve on this machine. */
async function unresolvedHost(args) {
  if (typeof args.url !== 'string') return null;
  const host = new URL(args.url).hostname;
  try {
    await dns.promises.lookup(host);
    return null;
  } catch {
    return host;
  }
}

/**
 * A tool call passes when it answers a tool result with structuredContent: a success, or the
 * API's NOT_FOUND (the samples' example ids are not this new account's).
 */
function judgeCall(called) {
  try {
    const result = JSON.parse(called.out);
    const content = result.structuredContent;
    if (content === undefined) return { ok: false, detail: JSON.stringify(result).slice(0, 300) };
    if (result.isError) {
      const { code, message } = content.error || {};
      const why = code === 'NOT_FOUND' ? 'an example id of the samples' : message;
      return { ok: code === 'NOT_FOUND', detail: `error ${code}: ${why}` };
    }
    const meta = content.meta || {};
    const shown = Object.entries(meta)
      .filter(([k]) => ['key_name', 'cached', 'charged', 'provider', 'max_pages'].includes(k))
      .map(([k, v]) => `meta.${k}=${v}`);
    return { ok: true, detail: shown.join(' ') || 'success' };
  } catch {
    return { ok: false, detail: called.err.slice(0, 300) };
  }
}

/** Migrates its own database and starts the API on a free port; resolves when it is live. */
async function startApi() {
  compileIfStale();
  const port = await freePort();
  const base = `http://localhost:${port}`;
  const env = {
    PORT: String(port),
    PUBLIC_BASE_URL: base,
    DATABASE_URL: `${pgServer}/${dbName}`,
    REDIS_PREFIX: redisPrefix,
    ADMIN_TOKEN: adminToken,
    SEO_DATA_PROVIDER: 'sandbox',
    // This throwaway instance may audit the script's own loopback site (callTools), which
    // stands in for a sample URL that does not resolve without outside network.
    AUDIT_ALLOW_PRIVATE_NETWORKS: 'true',
    LOG_LEVEL: 'warn',
  };
  const migrated = run(process.execPath, [entries.migrate], env);
  if (migrated.code !== 0) throw new Error(`migration failed: ${migrated.err || migrated.out}`);
  const api = spawn(process.execPath, [entries.api], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return { base, api };
}

/** An Agency account without monthly or per-minute limits in the way, and its key. */
async function newKey(base) {
  const account = await admin(base, 'POST', '/accounts', {
    name: 'mcp conformance',
    plan: 'agency',
  });
  await admin(base, 'PATCH', `/accounts/${account.id}`, {
    overrides: { api_calls_per_month: 'unlimited', requests_per_minute: 1000 },
  });
  return (
    await admin(base, 'POST', `/accounts/${account.id}/api-keys`, { label: 'mcp conformance' })
  ).key;
}

/** The MCP Inspector CLI against BASE/mcp, with the key header when one is given. */
function inspectorAt(base, key) {
  const auth = key ? ['--header', `Authorization: Bearer ${key}`] : [];
  return (...args) =>
    run('npx', ['-y', INSPECTOR, '--cli', `${base}/mcp`, '--transport', 'http', ...auth, ...args]);
}

/** tools/list: every listed tool backs a declared endpoint or is a named workflow tool. */
function checkToolList(inspector, examples) {
  const listed = inspector('--method', 'tools/list');
  let names = [];
  try {
    names = JSON.parse(listed.out).tools.map((t) => t.name);
  } catch {
    /* reported below */
  }
  const uncovered = names.filter((n) => !examples.has(n) && !(n in WORKFLOW_TOOLS));
  const unlisted = [...examples.keys()].filter((n) => !names.includes(n));
  record(
    "inspector tools/list: every tool is an endpoint's (its @Endpoint mcp) or a workflow tool",
    names.length > 0 && uncovered.length === 0 && unlisted.length === 0,
    names.length
      ? `${names.length} tools: ${names.join(', ')}` +
          (uncovered.length ? `; not covered: ${uncovered.join(', ')}` : '') +
          (unlisted.length ? `; declared but not listed: ${unlisted.join(', ')}` : '')
      : listed.err.slice(0, 400),
  );
  return names;
}

/** A one-page site on a free loopback port: the audit target when a sample's host does not resolve. */
async function localSite() {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      '<!doctype html><html lang="en"><head><title>Conformance site</title></head><body><h1>Conformance site</h1></body></html>',
    );
  });
  const port = await freePort();
  await new Promise((r) => server.listen(port, '127.0.0.1', r));
  return { origin: `http://127.0.0.1:${port}`, close: () => server.close() };
}

/**
 * tools/call of each endpoint's tool with its declaration's example arguments; a sample `url`
 * whose host does not resolve here (no outside network) is replaced by the local site's.
 */
async function callTools(inspector, names, examples, siteOrigin) {
  for (const tool of names.filter((n) => examples.has(n))) {
    const example = { ...examples.get(tool) };
    const unresolved = await unresolvedHost(example);
    if (unresolved) example.url = `${siteOrigin}/`;
    // The Inspector CLI reads each value as JSON when it parses: arrays and objects go as JSON.
    const args = Object.entries(example).map(
      ([k, v]) => `${k}=${typeof v === 'object' && v !== null ? JSON.stringify(v) : v}`,
    );
    const called = inspector(
      '--method',
      'tools/call',
      '--tool-name',
      tool,
      ...(args.length ? ['--tool-arg', ...args] : []),
    );
    const { ok, detail } = judgeCall(called);
    const instead = unresolved ? `; ${unresolved} does not resolve here, url=${example.url}` : '';
    record(`inspector tools/call ${tool}`, ok, detail + instead);
  }
}

async function inspectorChecks(base, key) {
  console.log(`== MCP Inspector CLI (${INSPECTOR})`);
  const inspector = inspectorAt(base, key);
  const examples = toolExamples();
  const site = await localSite();
  try {
    await callTools(inspector, checkToolList(inspector, examples), examples, site.origin);
  } finally {
    site.close();
  }
  const noKey = inspectorAt(base, null)('--method', 'tools/list');
  record(
    'inspector without a key is refused',
    noKey.code !== 0,
    (noKey.err || noKey.out).split('\n').find((l) => /401|auth/i.test(l)) || '',
  );
}

/** The conformance suite's server scenarios, through a proxy that adds the key. */
async function conformanceSuite(base, key) {
  console.log(
    `\n== Conformance suite (${CONFORMANCE}), server scenarios, through the key-adding proxy`,
  );
  const proxyPort = await freePort();
  const proxy = authProxy(base, key);
  await new Promise((r) => proxy.listen(proxyPort, '127.0.0.1', r));
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-conformance-'));
  try {
    const url = `http://localhost:${proxyPort}/mcp`;
    const conf = await runAsync('npx', [
      '-y',
      CONFORMANCE,
      'server',
      '--url',
      url,
      '--suite',
      'all',
      '--expected-failures',
      EXPECTED,
      '-o',
      outDir,
    ]);
    const text = `${conf.out}\n${conf.err}`
      .split('\n')
      .filter((l) => !/npm warn/i.test(l))
      .join('\n');
    console.log(text.trim());
    // The suite's result files are kept only when asked (MCP_CONFORMANCE_KEEP=1): CI and
    // repeated runs leave no directory behind.
    const keep = process.env.MCP_CONFORMANCE_KEEP === '1';
    record(
      'conformance server suite: no unexpected failure',
      conf.code === 0,
      `exit ${conf.code}; ${keep ? `results in ${outDir}` : 'MCP_CONFORMANCE_KEEP=1 keeps the results'}`,
    );
    if (!keep) fs.rmSync(outDir, { recursive: true, force: true });
  } finally {
    proxy.close();
  }
}

async function main() {
  const { base, api } = await startApi();
  try {
    await waitFor(`${base}/health/live`, 30_000);
    const key = await newKey(base);
    console.log(`API instance on ${base} (database ${dbName}); hosted MCP endpoint ${base}/mcp\n`);
    await inspectorChecks(base, key);
    await conformanceSuite(base, key);
  } finally {
    api.kill('SIGTERM');
    await new Promise((r) => (api.exitCode !== null ? r() : api.once('exit', r)));
    await cleanup();
  }
  const failed = results.filter((r) => !r.ok);
  console.log(`\n${results.length - failed.length} passed, ${failed.length} failed`);
  process.exitCode = failed.length ? 1 : 0;
}

async function cleanup() {
  const { Client } = require('pg');
  const pg = new Client({ connectionString: `${pgServer}/postgres` });
  await pg.connect();
  try {
    await pg.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
  } finally {
    await pg.end();
  }
  const Redis = require('ioredis');
  const redis = new Redis(process.env.REDIS_URL || 'redis://127.0.0.1:6379');
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${redisPrefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await redis.unlink(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

main().catch((error) => {
  console.error(`mcp-conformance: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
