import { execFile } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, Server } from 'node:http';
import { builtinModules } from 'node:module';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { promisify } from 'node:util';
import { AdminClient, TestAccount } from '../helpers/fixtures';
import { browserTestsEnabled, openBrowser, VIEWPORTS } from '../helpers/browser';
import { createTestApp, TestApp } from '../helpers/test-app';
import { closedPort } from '../site-audit/fixture-site';
import { POLLING_OVERRIDES } from '../site-audit/site-audit-helpers';

const run = promisify(execFile);
const ROOT = join(__dirname, '../..');
const CLIENT = join(ROOT, 'clients/typescript');
const TSC = join(ROOT, 'node_modules/.bin/tsc');
const OPENAPI_FETCH = join(ROOT, 'node_modules/openapi-fetch');
const BAD_KEY = `seo_live_${'x'.repeat(43)}`;

type Json = Record<string, unknown>;

/** What the checks of a child process (or of the page) report. */
interface Checked {
  format?: string;
  resolved?: string;
  pageOrigin?: string;
  usage: { data: Json; meta: Json };
  unauthorized: Json;
  network?: { code: string; status: null; message: string };
  location?: Json;
}

/** What a child `node` process printed as its last line (JSON). */
async function nodeRun(script: string, args: string[], cwd: string): Promise<Checked> {
  const { stdout } = await run(process.execPath, [script, ...args], { cwd, timeout: 30_000 });
  const last = stdout.trim().split('\n').pop() ?? '';
  return JSON.parse(last) as Checked;
}

/** The module specifiers a built file imports or requires. */
function specifiersOf(code: string): string[] {
  const found = new Set<string>();
  const patterns = [
    /\bfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const pattern of patterns) for (const m of code.matchAll(pattern)) found.add(m[1]);
  return [...found].sort();
}

/** The checks both child processes run: a real usage() call, a 401, a refused connection. */
const CHECKS = `
  const [baseUrl, apiKey, closedUrl] = process.argv.slice(2);
  const usage = await new SeoApiClient({ apiKey, baseUrl }).usage();
  let unauthorized;
  try {
    await new SeoApiClient({ apiKey: ${JSON.stringify(BAD_KEY)}, baseUrl }).usage();
  } catch (e) {
    unauthorized = { isSeoApiError: e instanceof SeoApiError, name: e.name, code: e.code, status: e.status, requestId: e.requestId };
  }
  let network;
  try {
    await new SeoApiClient({ apiKey, baseUrl: closedUrl }).usage();
  } catch (e) {
    network = { code: e.code, status: e.status, message: e.message };
  }
`;

const ESM_SCRIPT = `import { SeoApiClient, SeoApiError } from '@seo-api/client';
${CHECKS}
console.log(JSON.stringify({
  format: typeof require === 'undefined' ? 'module' : 'commonjs',
  resolved: import.meta.resolve('@seo-api/client'),
  usage, unauthorized, network,
}));
`;

const CJS_SCRIPT = `const { SeoApiClient, SeoApiError } = require('@seo-api/client');
(async () => {
${CHECKS}
console.log(JSON.stringify({
  format: typeof module === 'object' && typeof require === 'function' ? 'commonjs' : 'module',
  resolved: require.resolve('@seo-api/client'),
  usage, unauthorized, network,
}));
})().catch((e) => { console.error(e); process.exit(1); });
`;

/** A consumer typed against the built declarations, as a TypeScript user of the package would. */
const CONSUMER_TS = `import { SeoApiClient, SeoApiError, type UsageRecord } from '@seo-api/client';
export async function plan(client: SeoApiClient): Promise<string> {
  try {
    const { data, meta }: { data: UsageRecord; meta: { key_name: string } } = await client.usage();
    return \`\${data.plan} \${meta.key_name}\`;
  } catch (e) {
    if (e instanceof SeoApiError && e.code === 'RATE_LIMITED') return String(e.retryAfter);
    throw e;
  }
}
`;

/**
 * Issue 26: the client package builds (ESM and CJS, as `npm run client:build` does) into a
 * package laid out as an install would be (node_modules/@seo-api/client with its own
 * package.json, and openapi-fetch beside it), and each build works where it must: imported
 * by Node as an ES module, required by Node as CommonJS, typed for TypeScript users of both,
 * and loaded by a real browser from another origin. The built code imports nothing of Node.
 */
describe('typed client builds: Node ESM, Node CJS and a browser (issue 26)', () => {
  let t: TestApp;
  let acc: TestAccount;
  let admin: AdminClient;
  let dir: string;
  let pkg: string;
  let closedUrl: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'seo-client-build-'));
    pkg = join(dir, 'node_modules/@seo-api/client');
    mkdirSync(pkg, { recursive: true });
    copyFileSync(join(CLIENT, 'package.json'), join(pkg, 'package.json'));
    symlinkSync(OPENAPI_FETCH, join(dir, 'node_modules/openapi-fetch'), 'dir');
    // The two builds of `npm run client:build`, then its module-type markers (mark-modules.cjs).
    await Promise.all(
      ['esm', 'cjs'].map((format) =>
        run(
          TSC,
          ['-p', join(CLIENT, `tsconfig.${format}.json`), '--outDir', join(pkg, 'dist', format)],
          { cwd: ROOT },
        ),
      ),
    );
    writeFileSync(join(pkg, 'dist/esm/package.json'), '{ "type": "module" }\n');
    writeFileSync(join(pkg, 'dist/cjs/package.json'), '{ "type": "commonjs" }\n');

    t = await createTestApp();
    admin = new AdminClient(t.url);
    acc = await admin.account('pro', POLLING_OVERRIDES, 'build check');
    closedUrl = `http://127.0.0.1:${await closedPort()}`;
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('the builds are where the package exports point, and import nothing but openapi-fetch (no Node-only module)', () => {
    const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      exports: { '.': Record<string, { types: string; default: string }> };
    };
    expect(Object.keys(manifest.dependencies)).toEqual(['openapi-fetch']);
    for (const target of Object.values(manifest.exports['.'])) {
      expect(existsSync(join(pkg, target.default))).toBe(true);
      expect(existsSync(join(pkg, target.types))).toBe(true);
    }
    const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
    for (const format of ['esm', 'cjs']) {
      const files = readdirSync(join(pkg, 'dist', format)).filter((f) => f.endsWith('.js'));
      expect(files.sort()).toEqual(['index.js', 'schema.js']);
      const specifiers = files.flatMap((f) =>
        specifiersOf(readFileSync(join(pkg, 'dist', format, f), 'utf8')),
      );
      expect(specifiers.filter((s) => s.startsWith('node:') || builtins.has(s))).toEqual([]);
      expect(specifiers.filter((s) => !s.startsWith('.'))).toEqual(['openapi-fetch']);
    }
    const esm = readFileSync(join(pkg, 'dist/esm/index.js'), 'utf8');
    expect(esm).not.toMatch(/\brequire\s*\(/);
    expect(esm).not.toMatch(/\b(process|Buffer|__dirname)\b/);
    // the runtime dependency imports nothing itself
    expect(specifiersOf(readFileSync(join(OPENAPI_FETCH, 'dist/index.mjs'), 'utf8'))).toEqual([]);
  });

  it('Node imports the ESM build and requires the CJS build; each makes real calls', async () => {
    writeFileSync(join(dir, 'check.mjs'), ESM_SCRIPT);
    writeFileSync(join(dir, 'check.cjs'), CJS_SCRIPT);
    const [esm, cjs] = await Promise.all([
      nodeRun(join(dir, 'check.mjs'), [t.url, acc.key, closedUrl], dir),
      nodeRun(join(dir, 'check.cjs'), [t.url, acc.key, closedUrl], dir),
    ]);
    expect(esm.format).toBe('module');
    expect(esm.resolved).toBe(`file://${join(pkg, 'dist/esm/index.js')}`);
    expect(cjs.format).toBe('commonjs');
    expect(cjs.resolved).toBe(join(pkg, 'dist/cjs/index.js'));
    for (const out of [esm, cjs]) {
      expect(out.usage.data).toMatchObject({ plan: 'pro', unlimited: true });
      expect(out.usage.meta).toMatchObject({ key_name: 'build check' });
      expect(out.unauthorized).toEqual({
        isSeoApiError: true,
        name: 'SeoApiError',
        code: 'UNAUTHORIZED',
        status: 401,
        requestId: expect.any(String),
      });
      // in plain Node the cause of a refused connection is named
      expect(out.network).toEqual({
        code: 'NETWORK_ERROR',
        status: null,
        message: expect.stringContaining('ECONNREFUSED'),
      });
    }
    const used = [esm.usage.data.api_calls_used, cjs.usage.data.api_calls_used].map(Number).sort();
    expect(used).toEqual([1, 2]);
  });

  it('TypeScript users of either build get the declarations (module nodenext, ESM and CJS)', async () => {
    writeFileSync(join(dir, 'consumer.mts'), CONSUMER_TS);
    writeFileSync(join(dir, 'consumer.cts'), CONSUMER_TS);
    const args = ['--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext'];
    const options = ['--target', 'es2022', '--lib', 'es2022,dom'];
    // a type mistake fails to compile: the declarations are really used
    writeFileSync(
      join(dir, 'wrong.mts'),
      `import type { UsageRecord } from '@seo-api/client';\nexport const n: number = (null as unknown as UsageRecord).plan;\n`,
    );
    const [right, wrong] = await Promise.allSettled([
      run(TSC, [...args, ...options, 'consumer.mts', 'consumer.cts'], { cwd: dir }),
      run(TSC, [...args, ...options, 'wrong.mts'], { cwd: dir }),
    ]);
    expect(right).toMatchObject({ status: 'fulfilled' });
    expect(wrong).toMatchObject({ status: 'rejected' });
    expect((wrong as PromiseRejectedResult).reason).toMatchObject({
      stdout: expect.stringContaining("Type 'string' is not assignable to type 'number'"),
    });
  });

  const browserSuite = 'typed client in headless Chromium';
  (browserTestsEnabled(browserSuite) ? it : it.skip)(
    'a browser loads the ESM build (import map for openapi-fetch) from another origin and calls the API',
    async () => {
      const page = pageHtml({ baseUrl: t.url, apiKey: acc.key, badKey: BAD_KEY });
      const files: Record<string, string> = {
        '/': page,
        '/vendor/openapi-fetch.mjs': readFileSync(join(OPENAPI_FETCH, 'dist/index.mjs'), 'utf8'),
      };
      for (const f of readdirSync(join(pkg, 'dist/esm')).filter((f) => f.endsWith('.js')))
        files[`/client/${f}`] = readFileSync(join(pkg, 'dist/esm', f), 'utf8');
      const server: Server = createServer((req, res) => {
        const path = (req.url ?? '/').split('?')[0];
        const body = files[path];
        if (body === undefined) {
          res.writeHead(404).end();
          return;
        }
        const type = extname(path) === '' ? 'text/html' : 'text/javascript';
        res.writeHead(200, { 'Content-Type': `${type}; charset=utf-8` }).end(body);
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      expect(origin).not.toBe(t.url);
      const browser = await openBrowser(VIEWPORTS.desktop, origin);
      const problems: string[] = [];
      browser.page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
      browser.page.on('console', (msg) => {
        // the browser logs each 4xx it fetched ("Failed to load resource"): those are expected
        if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource'))
          problems.push(`console error: ${msg.text()}`);
      });
      const apiCalls: string[] = [];
      browser.page.on('requestfinished', (r) => {
        if (r.url().startsWith(t.url)) apiCalls.push(`${r.method()} ${new URL(r.url()).pathname}`);
      });
      try {
        await browser.page.goto(`${origin}/`);
        await browser.page.waitForFunction('document.title === "done"', undefined, {
          timeout: 20_000,
        });
        const shown = JSON.parse(
          (await browser.page.locator('#out').textContent()) ?? '{}',
        ) as Checked;
        expect(problems).toEqual([]);
        expect(shown.pageOrigin).toBe(origin);
        expect(shown.usage.data).toMatchObject({ plan: 'pro', unlimited: true });
        expect(shown.usage.meta).toMatchObject({ key_name: 'build check' });
        expect(shown.unauthorized).toEqual({
          isSeoApiError: true,
          name: 'SeoApiError',
          code: 'UNAUTHORIZED',
          status: 401,
          retryAfter: null,
          requestId: expect.any(String),
        });
        // a POST body crossed origins too: the server read its location_code
        expect(shown.location).toMatchObject({ code: 'UNSUPPORTED_LOCATION', status: 422 });
        expect(apiCalls).toEqual(
          expect.arrayContaining(['GET /api/v1/usage', 'POST /api/v1/keyword-research']),
        );
      } finally {
        await browser.close();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    },
  );
});

/** The test page: imports the client as a browser would, runs the calls, shows the results. */
function pageHtml(config: { baseUrl: string; apiKey: string; badKey: string }): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>running</title>
<script type="importmap">{ "imports": { "openapi-fetch": "/vendor/openapi-fetch.mjs" } }</script>
<script id="config" type="application/json">${JSON.stringify(config)}</script>
<script type="module">
import { SeoApiClient, SeoApiError } from '/client/index.js';
const { baseUrl, apiKey, badKey } = JSON.parse(document.getElementById('config').textContent);
const out = { pageOrigin: location.origin };
const describe = (e) => e instanceof SeoApiError
  ? { isSeoApiError: true, name: e.name, code: e.code, status: e.status, retryAfter: e.retryAfter, requestId: e.requestId }
  : { isSeoApiError: false, message: String(e) };
const client = new SeoApiClient({ apiKey, baseUrl });
try { out.usage = await client.usage(); } catch (e) { out.usage = describe(e); }
try { await new SeoApiClient({ apiKey: badKey, baseUrl }).usage(); out.unauthorized = 'answered'; }
catch (e) { out.unauthorized = describe(e); }
try {
  await client.keywordResearch({ keyword: 'shoes', location_code: 9999, language_code: 'en', limit: 3 });
  out.location = 'answered';
} catch (e) { out.location = describe(e); }
document.getElementById('out').textContent = JSON.stringify(out);
document.title = 'done';
</script></head>
<body><pre id="out"></pre></body></html>`;
}
