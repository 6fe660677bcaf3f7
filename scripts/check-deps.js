#!/usr/bin/env node
/*
 * Are PostgreSQL (DATABASE_URL) and Redis (REDIS_URL, or one of REDIS_SENTINELS) reachable? `npm start` runs this first,
 * before building anything. On failure: one short message per missing service naming the
 * command that provides it, exit code 1, no stack trace. Also usable alone:
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

/** The problems, one line each (empty when both answer). */
async function checkDependencies() {
  const sentinels = (process.env.REDIS_SENTINELS || '').trim();
  const services = sentinels
    ? [SERVICES[0], { name: 'Redis Sentinel', env: 'REDIS_SENTINELS', sentinels }]
    : SERVICES;
  const results = await Promise.all(
    services.map(async (s) => {
      if (s.sentinels) {
        // With Sentinel, one answering Sentinel is enough to find the master.
        const nodes = s.sentinels.split(',').map((n) => {
          const m = /^\[?([^\]]+?)\]?:(\d+)$/.exec(n.trim());
          return m ? { host: m[1], port: Number(m[2]) } : null;
        });
        if (nodes.some((n) => n === null)) return 'REDIS_SENTINELS is not a list of host:port.';
        const answers = await Promise.all(nodes.map(reachable));
        if (answers.some(Boolean)) return null;
        return (
          `No Redis Sentinel is reachable at ${s.sentinels} (REDIS_SENTINELS). Start them, or unset ` +
          'REDIS_SENTINELS to use REDIS_URL.'
        );
      }
      const t = s.target();
      if (t.invalid) return `${s.env} is not a valid URL.`;
      if (await reachable(t)) return null;
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
