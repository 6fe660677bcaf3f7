#!/usr/bin/env node
/*
 * Are PostgreSQL (DATABASE_URL) and Redis (REDIS_URL; with REDIS_SENTINELS, the master the
 * Sentinels name) reachable? `npm start` runs this first, before building anything. On
 * failure: one short message per missing service naming the command that provides it, exit
 * code 1, no stack trace. Also usable alone:
 *   node scripts/check-deps.js
 */
'use strict';
const net = require('node:net');

const TIMEOUT_MS = Number(process.env.DEPENDENCY_CHECK_TIMEOUT_MS || 2000);

function target(envName, fallback, defaultPort) {
  const raw = process.env[envName] || fallback;
  try {
    const u = new URL(raw);
    return {
      host: u.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1',
      port: Number(u.port || defaultPort),
    };
  } catch {
    return { host: null, port: null, invalid: true };
  }
}

function reachable({ host, port }) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(TIMEOUT_MS, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

const SERVICES = [
  {
    name: 'PostgreSQL',
    env: 'DATABASE_URL',
    target: () => target('DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/seo_api', 5432),
    local: 'sudo service postgresql start',
  },
  {
    name: 'Redis',
    env: 'REDIS_URL',
    target: () => target('REDIS_URL', 'redis://127.0.0.1:6379', 6379),
    local: 'sudo service redis-server start',
  },
];

/** `host:port,...` (IPv6 in brackets), as the typed config parses REDIS_SENTINELS; null when malformed. */
function parseHostPorts(value) {
  const nodes = [];
  for (const raw of value.split(',')) {
    const m = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(raw.trim());
    if (!m || Number(m[2]) < 1 || Number(m[2]) > 65535) return null;
    nodes.push({ host: m[1].replace(/^\[(.*)\]$/, '$1'), port: Number(m[2]) });
  }
  return nodes.length ? nodes : null;
}

const INCOMPLETE = Symbol('incomplete');

/** One RESP reply from the start of `text` (latin1): {value} or null while incomplete. */
function parseReply(text) {
  const cursor = { text, i: 0 };
  try {
    return { value: readValue(cursor) };
  } catch (err) {
    if (err === INCOMPLETE) return null;
    throw err;
  }
}

/** The next CRLF-terminated line at `cursor` (throws INCOMPLETE when it has not all arrived). */
function readLine(cursor) {
  const end = cursor.text.indexOf('\r\n', cursor.i);
  if (end < 0) throw INCOMPLETE;
  const l = cursor.text.slice(cursor.i, end);
  cursor.i = end + 2;
  return l;
}

/** The next RESP value at `cursor`: arrays read their elements in turn. */
function readValue(cursor) {
  const l = readLine(cursor);
  const rest = l.slice(1);
  switch (l[0]) {
    case '+':
      return rest;
    case '-':
      return { error: rest };
    case ':':
      return Number(rest);
    case '_':
      return null;
    case '$':
      return readBulkString(cursor, Number(rest));
    case '*': {
      const n = Number(rest);
      if (n < 0) return null;
      return Array.from({ length: n }, () => readValue(cursor));
    }
    default:
      return { error: `unexpected reply ${JSON.stringify(l.slice(0, 40))}` };
  }
}

/** A bulk string of `n` bytes at `cursor` (null for n < 0). */
function readBulkString(cursor, n) {
  if (n < 0) return null;
  if (cursor.text.length < cursor.i + n + 2) throw INCOMPLETE;
  const v = cursor.text.slice(cursor.i, cursor.i + n);
  cursor.i += n + 2;
  return v;
}

/** Sends one command on a fresh connection: {value} (the reply), or null when nothing answers. */
function ask({ host, port }, args) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    let text = '';
    const done = (reply) => {
      socket.destroy();
      resolve(reply);
    };
    socket.setTimeout(TIMEOUT_MS, () => done(null));
    socket.once('error', () => done(null));
    socket.once('close', () => done(null));
    const command = args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('');
    socket.once('connect', () => socket.write(`*${args.length}\r\n${command}`));
    socket.on('data', (d) => {
      text += d.toString('latin1');
      const reply = parseReply(text);
      if (reply) done(reply);
    });
  });
}

/**
 * With REDIS_SENTINELS: asks the Sentinels, in order, for the master named
 * REDIS_SENTINEL_MASTER (default seo) and checks that it answers PING, as the API and the
 * worker will. One line naming what is wrong, or null.
 */
async function checkSentinels(list) {
  const nodes = parseHostPorts(list);
  if (!nodes) {
    return 'REDIS_SENTINELS must be a comma-separated list of host:port (e.g. 10.0.0.5:26379,10.0.0.6:26379; IPv6 as [::1]:26379).';
  }
  const master = process.env.REDIS_SENTINEL_MASTER || 'seo';
  let unknownMaster = false;
  let refusal = null;
  for (const node of nodes) {
    const reply = await ask(node, ['SENTINEL', 'get-master-addr-by-name', master]);
    if (!reply) continue;
    const v = reply.value;
    if (v === null) {
      unknownMaster = true;
    } else if (Array.isArray(v) && v.length === 2) {
      return checkMaster(master, node, { host: v[0], port: Number(v[1]) });
    } else if (!refusal) {
      refusal = `${hostLabel(node)} answered ${JSON.stringify(((v && v.error) || String(v)).trim())}`;
    }
  }
  return sentinelsFailure(list, master, unknownMaster, refusal);
}

/** `host:port`, an IPv6 host in brackets. */
function hostLabel(n) {
  return n.host.includes(':') ? `[${n.host}]:${n.port}` : `${n.host}:${n.port}`;
}

/** Does the master a Sentinel (`node`) named at `addr` answer PING? One line naming what is wrong, or null. */
async function checkMaster(master, node, addr) {
  const pong = await ask(addr, ['PING']);
  if (pong && pong.value === 'PONG') return null;
  if (pong && pong.value && /^NOAUTH/.test(pong.value.error || '')) {
    return (
      `The Redis master "${master}" at ${hostLabel(addr)} (named by the Sentinel at ${hostLabel(node)}) ` +
      'requires a password; REDIS_SENTINELS does not support Redis authentication yet.'
    );
  }
  return (
    `The Sentinel at ${hostLabel(node)} names ${hostLabel(addr)} as the Redis master "${master}", ` +
    'but it does not answer PING.'
  );
}

/** Why no Sentinel named the master: none knows it, one refused (`refusal`), or none answered. */
function sentinelsFailure(list, master, unknownMaster, refusal) {
  if (unknownMaster) {
    return (
      `The Redis Sentinels at ${list} do not monitor a master named "${master}" ` +
      '(REDIS_SENTINEL_MASTER; default seo).'
    );
  }
  if (refusal) return `A Redis Sentinel was expected at REDIS_SENTINELS, but ${refusal}.`;
  return (
    `No Redis Sentinel is reachable at ${list} (REDIS_SENTINELS). Start them, or unset ` +
    'REDIS_SENTINELS to use REDIS_URL.'
  );
}

/**
 * Redis's maxmemory-policy at `t`: `CONFIG GET`, else `INFO memory` (managed Redis disables
 * CONFIG); null when neither answers it (e.g. a password is needed: the API checks it then).
 */
async function memoryPolicy(t) {
  const config = await ask(t, ['CONFIG', 'GET', 'maxmemory-policy']);
  if (config && Array.isArray(config.value) && config.value.length >= 2) {
    return String(config.value[1]).toLowerCase();
  }
  const info = await ask(t, ['INFO', 'memory']);
  const m = info && typeof info.value === 'string' && /^maxmemory_policy:(\S+)/m.exec(info.value);
  return m ? m[1].toLowerCase() : null;
}

/**
 * A Redis that evicts keys (any maxmemory-policy but noeviction) breaks the per-minute limits,
 * the research locks and the site-audit queue when it fills up: a problem with
 * NODE_ENV=production (the API and the worker refuse to start then), a warning otherwise.
 */
async function checkMemoryPolicy(t) {
  const policy = await memoryPolicy(t);
  if (!policy || policy === 'noeviction') return null;
  const message =
    `Redis at ${t.host}:${t.port} has maxmemory-policy ${policy}: when full it evicts keys ` +
    '(per-minute limits, research locks, queued site audits). Set maxmemory-policy noeviction ' +
    '(redis.conf, or `redis-cli CONFIG SET maxmemory-policy noeviction`).';
  if (process.env.NODE_ENV === 'production') return message;
  console.warn(`Warning: ${message}`);
  return null;
}

/** The problems, one line each (empty when both answer). */
async function checkDependencies() {
  const sentinels = (process.env.REDIS_SENTINELS || '').trim();
  const services = sentinels
    ? [SERVICES[0], { name: 'Redis Sentinel', env: 'REDIS_SENTINELS', sentinels }]
    : SERVICES;
  const results = await Promise.all(
    services.map(async (s) => {
      // With Sentinel, REDIS_URL is ignored: the Sentinels name the master.
      if (s.sentinels) return checkSentinels(s.sentinels);
      const t = s.target();
      if (t.invalid) return `${s.env} is not a valid URL.`;
      if (await reachable(t)) return s.env === 'REDIS_URL' ? checkMemoryPolicy(t) : null;
      return (
        `${s.name} is not reachable at ${t.host}:${t.port} (${s.env}). Start it with ` +
        `\`docker compose up -d postgres redis\`, or locally: \`${s.local}\`.`
      );
    }),
  );
  return results.filter(Boolean);
}

module.exports = { checkDependencies };

if (require.main === module) {
  checkDependencies().then((problems) => {
    for (const p of problems) console.error(p);
    process.exit(problems.length ? 1 : 0);
  });
}
