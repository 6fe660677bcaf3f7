import http from 'node:http';
import fc from 'fast-check';
import { AdminClient, TestAccount } from '../helpers/fixtures';
import { signIn, SignedInUser } from '../helpers/account-session';
import { FuzzRoute, ParameterDoc, publicFuzzRoutes } from '../helpers/fuzz-routes';
import { ADMIN_TOKEN, createTestApp, TestApp } from '../helpers/test-app';

/**
 * Hostile-input fuzz suite (issue 13): property-based requests (fast-check) over every public
 * route, the account JSON API (with and without a session) and the admin API. Every answer
 * must be < 500 and the JSON envelope; a refusal (4xx) must charge nothing and store nothing.
 *
 * Fixed seed in CI: FUZZ_SEED (default 42), FUZZ_RUNS per property (default 30).
 * Longer run: `FUZZ_RUNS=2000 FUZZ_SEED=$RANDOM npx jest test/foundation/fuzz --selectProjects e2e`.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 42);
const RUNS = Number(process.env.FUZZ_RUNS ?? 30);
const fcOptions = { seed: SEED, numRuns: RUNS, endOnFailure: true };
jest.setTimeout(Math.max(120_000, RUNS * 2_000));

// ---------- raw HTTP (no client-side normalisation of paths, headers or bodies) ----------

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: unknown;
}

interface Req {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer | string;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

function send(base: string, req: Req): Promise<Answer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const body = req.body === undefined ? undefined : Buffer.from(req.body);
    const headers: Record<string, string> = { ...req.headers };
    if (body) headers['Content-Length'] = String(body.length);
    const r = http.request(
      { hostname, port: Number(port), method: req.method, path: req.path, headers, agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
        res.on('error', reject);
      },
    );
    r.on('error', reject);
    if (body) r.write(body);
    r.end();
  });
}

function describeReq(req: Req): string {
  const body =
    req.body === undefined
      ? ''
      : ` body=${String(req.body).slice(0, 300)}${String(req.body).length > 300 ? '…' : ''}`;
  return `${req.method} ${req.path.slice(0, 300)} headers=${JSON.stringify(req.headers).slice(0, 300)}${body}`;
}

/** Never a 5xx; always the envelope: success boolean, meta object; error answers carry error.code. */
function expectEnvelope(req: Req, res: Answer) {
  const where = `${describeReq(req)} → ${res.status} ${res.text.slice(0, 300)}`;
  if (res.status >= 500) throw new Error(`5xx: ${where}`);
  const b = res.json as
    { success?: unknown; meta?: unknown; error?: { code?: unknown } } | undefined;
  if (!b || typeof b !== 'object') throw new Error(`not JSON: ${where}`);
  if (typeof b.success !== 'boolean') throw new Error(`no success boolean: ${where}`);
  if (!b.meta || typeof b.meta !== 'object' || Array.isArray(b.meta))
    throw new Error(`no meta object: ${where}`);
  if (res.status >= 400) {
    if (b.success !== false) throw new Error(`error answer with success!==false: ${where}`);
    if (typeof b.error?.code !== 'string')
      throw new Error(`error answer without error.code: ${where}`);
  }
}

// ---------- arbitraries ----------

const PROTO_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
];
const HOSTILE_STRINGS = [
  '',
  ' ',
  '\u0000',
  '\uFEFF',
  '\u202E',
  '😀'.repeat(50),
  'é',
  '\uD800',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '../../etc/passwd',
  '%00',
  '%E0%A4%A',
  'NaN',
  'Infinity',
  '-0',
  '1e309',
  '99999999999999999999999999',
  '-99999999999999999999999999',
  '0x10',
  'http://127.0.0.1/',
  'http://169.254.169.254/latest/meta-data/',
  'http://[::1]/',
  'file:///etc/passwd',
  'x'.repeat(5000),
];

const hostileString = fc.oneof(
  fc.constantFrom(...HOSTILE_STRINGS),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ maxLength: 10 }),
);

const hostileNumber = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -1, 1, 2 ** 31, 2 ** 53 + 1, -(2 ** 63), 1e308, Number.MIN_VALUE, 3.5),
);

const key = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...PROTO_KEYS) },
  {
    weight: 5,
    arbitrary: fc.constantFrom(
      'url',
      'keyword',
      'keywords',
      'location',
      'location_code',
      'language',
      'language_code',
      'limit',
      'max_pages',
      'max_depth',
      'name',
      'plan',
      'overrides',
      'amount',
      'reason',
      'label',
      'email',
      'password',
      'current_password',
      'new_password',
      'domain',
      'rows',
      'checks',
      'scans',
    ),
  },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }) },
);

/** JSON values: nesting (including past the 32-level bound), sizes, types, unicode, prototype keys. */
const { json: jsonValue } = fc.letrec<{ json: unknown }>((tie) => ({
  json: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    hostileNumber,
    hostileString,
    fc.array(tie('json'), { maxLength: 6 }),
    fc.dictionary(key, tie('json'), { maxKeys: 6 }),
  ),
}));

const deepNesting = fc
  .tuple(fc.integer({ min: 20, max: 3000 }), fc.boolean())
  .map(([depth, arr]) =>
    arr
      ? '['.repeat(depth) + '1' + ']'.repeat(depth)
      : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth),
  );

const protoBody = fc
  .tuple(fc.constantFrom(...PROTO_KEYS), jsonValue, jsonValue)
  .map(
    ([k, v, w]) =>
      `{"${k}":${JSON.stringify(v) ?? 'null'},"__proto__":{"admin":true,"plan":"agency","credits":1e9},"constructor":{"prototype":{"polluted":${JSON.stringify(w) ?? 'null'}}}}`,
  );

const bigBody = fc
  .constantFrom(10_000, 200_000, 1_100_000, 3_000_000)
  .map((n) => JSON.stringify({ keyword: 'x'.repeat(n) }));

const manyValues = fc
  .integer({ min: 1_000, max: 60_000 })
  .map((n) => JSON.stringify({ keywords: Array.from({ length: n }, () => 1) }));

/** A body text: JSON of any shape, plus the hostile forms and some that are not JSON at all. */
const bodyText = fc.oneof(
  { weight: 6, arbitrary: jsonValue.map((v) => JSON.stringify(v) ?? 'null') },
  { weight: 2, arbitrary: protoBody },
  { weight: 1, arbitrary: deepNesting },
  { weight: 1, arbitrary: bigBody },
  { weight: 1, arbitrary: manyValues },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '',
      '{',
      '{"a":}',
      'null',
      '"x"',
      '[]',
      '1',
      'true',
      '\uFEFF{}',
      '{"a":1}{"b":2}',
    ),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
);

const contentType = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=UTF-8',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'application/json; charset=nope',
  'application/json;;;',
  'APPLICATION/JSON',
  'application/vnd.api+json',
  'application/merge-patch+json',
  'text/plain',
  'text/json',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'multipart/form-data',
  'application/octet-stream',
  '*/*',
  '',
  ';',
  'json',
);

const encoding = fc.constantFrom(
  undefined,
  undefined,
  undefined,
  'gzip',
  'deflate',
  'br',
  'identity',
  'x-nope',
);

/** Raw path or query text with characters Node refuses in a request line percent-encoded. */
const printable = (s: string) =>
  Array.from(s)
    .map((c) => (/^[\x21-\x7e]$/.test(c) ? c : encodeURIComponent(c).replace(/%25/g, '%')))
    .join('');

const queryValue = fc.oneof(
  fc.constantFrom(
    '',
    '1',
    '0',
    '-1',
    '1.5',
    '1e309',
    '99999999999999999999999999999',
    'NaN',
    'true',
    '%E0%A4%A',
    '%',
    '%%',
    '%00',
    '%C0%AF',
    '%FF',
    '%2e%2e%2f',
    'a%26b%3Dc',
    'example.com',
    'https://example.com/',
    '2026-11-01',
    '2026-13-45',
    'query,page,country,device,date',
    'x'.repeat(3000),
  ),
  hostileString.map((s) => encodeURIComponent(s.replace(/[\uD800-\uDFFF]/g, ''))),
  fc.string({ maxLength: 20 }).map(printable),
);

const queryKey = (names: string[]) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...names) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        'api_key',
        'api%5Fkey',
        'API_KEY',
        'api_key[]',
        'api_key[a]',
        '__proto__',
        '__proto__[polluted]',
        'constructor[prototype][x]',
        'a[b][c][d][e][f][g]',
        '',
        '%',
        '%E0%A4%A',
      ),
    },
    { weight: 1, arbitrary: fc.constantFrom(...names).map((n) => `${n}[]`) },
    { weight: 1, arbitrary: fc.string({ maxLength: 8 }).map(printable) },
  );

const queryString = (names: string[]) =>
  fc
    .array(fc.tuple(queryKey(names), queryValue, fc.constantFrom('=', '=', '', '==')), {
      maxLength: 8,
    })
    .chain((pairs) =>
      fc
        .constantFrom('&', '&', ';', '&&')
        .map((sep) => pairs.map(([k, v, eq]) => (eq === '' ? k : `${k}${eq}${v}`)).join(sep)),
    );

const pathSegment = fc.oneof(
  fc.constantFrom(
    '1',
    '0',
    '-1',
    '2147483648',
    '99999999999999999999999',
    '1e3',
    '1.0',
    '%E0%A4%A',
    '%',
    '%00',
    '%2F',
    '..',
    '%2e%2e',
    '.',
    'job_',
    'job_0000000000000000000000',
    'job_' + 'A'.repeat(22),
    'job_' + 'A'.repeat(500),
    '__proto__',
    'constructor',
    'x'.repeat(3000),
    '%F0%9F%98%80',
  ),
  fc.string({ unit: 'grapheme', maxLength: 20 }).map((s) => encodeURIComponent(s) || 'x'),
  fc.string({ maxLength: 20 }).map((s) => printable(s).replace(/[/?#]/g, '') || 'x'),
);

/** Extra headers: charset, accept, request id, cookies, origin, duplicated auth forms. */
const headerValue = fc.string({ maxLength: 40 }).map((s) => s.replace(/[^\x20-\x7e]/g, '').trim());
const extraHeaders = fc.record(
  {
    Accept: fc.constantFrom(
      'application/json',
      '*/*',
      'text/html',
      'application/xml',
      '',
      'application/json; charset=latin1',
    ),
    'Accept-Charset': fc.constantFrom('latin1', 'utf-16', '*', ''),
    'Accept-Encoding': fc.constantFrom('gzip', 'br', 'identity;q=0', '*;q=0', ''),
    'X-Request-Id': fc.oneof(headerValue, fc.constant('x'.repeat(4000))),
    Cookie: fc.oneof(
      headerValue,
      fc.constant('seo_session=' + 'a'.repeat(200)),
      fc.constant('seo_session=%E0%A4%A'),
    ),
    Origin: fc.constantFrom('null', 'https://evil.example', 'http://127.0.0.1', ''),
    'X-Forwarded-For': fc.constantFrom('1.2.3.4', '::1', 'garbage', '1.1.1.1, 2.2.2.2'),
  },
  { requiredKeys: [] },
);

// ---------- route tables ----------

type Route = FuzzRoute;

const ACCOUNT_ROUTES: Route[] = [
  { method: 'GET', path: '/account/v1/me', query: [], body: false },
  { method: 'GET', path: '/account/v1/usage', query: [], body: false },
  { method: 'GET', path: '/account/v1/api-keys', query: [], body: false },
  { method: 'POST', path: '/account/v1/api-keys', query: [], body: true },
  { method: 'DELETE', path: '/account/v1/api-keys/:seg', query: [], body: false },
  { method: 'GET', path: '/account/v1/connections', query: [], body: false },
  { method: 'DELETE', path: '/account/v1/connections/:seg', query: [], body: false },
  { method: 'POST', path: '/account/v1/password', query: [], body: true },
  { method: 'POST', path: '/account/v1/session', query: [], body: true },
  { method: 'GET', path: '/account/v1/rank/projects', query: [], body: false },
  {
    method: 'GET',
    path: '/account/v1/rank/keywords',
    query: ['project_id', 'limit', 'offset'],
    body: false,
  },
  { method: 'POST', path: '/account/v1/rank/projects', query: [], body: true },
  { method: 'PATCH', path: '/account/v1/rank/projects/:seg', query: [], body: true },
  { method: 'DELETE', path: '/account/v1/rank/projects/:seg', query: [], body: false },
  { method: 'POST', path: '/account/v1/rank/projects/:seg/keywords', query: [], body: true },
  { method: 'PATCH', path: '/account/v1/rank/keywords/:seg', query: [], body: true },
  { method: 'DELETE', path: '/account/v1/rank/keywords/:seg', query: [], body: false },
  { method: 'GET', path: '/account/v1/ai-visibility/projects', query: [], body: false },
  { method: 'POST', path: '/account/v1/ai-visibility/projects', query: [], body: true },
  {
    method: 'GET',
    path: '/account/v1/ai-visibility/projects/:seg/settings',
    query: [],
    body: false,
  },
  { method: 'PATCH', path: '/account/v1/ai-visibility/projects/:seg', query: [], body: true },
  { method: 'DELETE', path: '/account/v1/ai-visibility/projects/:seg', query: [], body: false },
  { method: 'GET', path: '/account/v1/ai-visibility/projects/:seg/scores', query: [], body: false },
  {
    method: 'GET',
    path: '/account/v1/ai-visibility/projects/:seg/answers',
    query: [],
    body: false,
  },
  { method: 'GET', path: '/account/v1/:seg', query: [], body: false },
];

const ADMIN_ROUTES: Route[] = [
  { method: 'POST', path: '/admin/v1/accounts', query: [], body: true },
  { method: 'GET', path: '/admin/v1/accounts/:seg', query: [], body: false },
  { method: 'PATCH', path: '/admin/v1/accounts/:id', query: [], body: true },
  { method: 'PATCH', path: '/admin/v1/accounts/:seg', query: [], body: true },
  { method: 'POST', path: '/admin/v1/accounts/:id/api-keys', query: [], body: true },
  { method: 'GET', path: '/admin/v1/accounts/:seg/api-keys', query: [], body: false },
  { method: 'DELETE', path: '/admin/v1/api-keys/:seg', query: [], body: false },
  { method: 'POST', path: '/admin/v1/accounts/:id/credits', query: [], body: true },
  { method: 'POST', path: '/admin/v1/accounts/:seg/credits', query: [], body: true },
  { method: 'POST', path: '/admin/v1/accounts/:id/users', query: [], body: true },
  { method: 'GET', path: '/admin/v1/accounts/:seg/users', query: [], body: false },
  { method: 'DELETE', path: '/admin/v1/users/:seg', query: [], body: false },
  { method: 'POST', path: '/admin/v1/accounts/:id/rank-projects', query: [], body: true },
  { method: 'POST', path: '/admin/v1/rank-projects/:seg/keywords', query: [], body: true },
  { method: 'POST', path: '/admin/v1/tracked-keywords/:seg/checks', query: [], body: true },
  { method: 'POST', path: '/admin/v1/accounts/:id/gsc-properties', query: [], body: true },
  { method: 'POST', path: '/admin/v1/gsc-properties/:seg/rows', query: [], body: true },
  { method: 'POST', path: '/admin/v1/accounts/:id/ai-visibility-projects', query: [], body: true },
  { method: 'POST', path: '/admin/v1/ai-visibility-projects/:seg/scans', query: [], body: true },
  { method: 'GET', path: '/admin/v1/accounts/:seg/provider-spend', query: ['month'], body: false },
  { method: 'GET', path: '/admin/v1/:seg', query: [], body: false },
];

/** Requests for a route table: path segments, query strings, bodies with content-type/encoding, headers. */
function requests(routes: Route[], fixedId: () => number) {
  return fc
    .record({
      route: fc.constantFrom(...routes),
      seg: pathSegment,
      query: fc.option(
        fc.constantFrom(...routes).chain((r) => queryString(r.query.length ? r.query : ['x'])),
        {
          nil: undefined,
        },
      ),
      body: fc.option(bodyText, { nil: undefined, freq: 4 }),
      contentType: fc.option(contentType, { nil: undefined, freq: 2 }),
      encoding,
      headers: extraHeaders,
    })
    .map(({ route, seg, query, body, contentType, encoding, headers }) => {
      const path =
        route.path.replace(':seg', seg).replace(':id', String(fixedId())) +
        (query !== undefined ? `?${query}` : '');
      const h: Record<string, string> = { ...headers };
      const withBody = route.body || body !== undefined;
      if (withBody && contentType !== undefined) h['Content-Type'] = contentType;
      else if (withBody) h['Content-Type'] = 'application/json';
      if (withBody && encoding !== undefined) h['Content-Encoding'] = encoding;
      const req: Req = { method: route.method, path, headers: h };
      if (withBody) req.body = body ?? '{}';
      return req;
    });
}

/** FUZZ_STATS=1 prints the answers by route and status after the run (to see what the fuzz reaches). */
const stats = new Map<string, number>();
function tally(req: Req, res: Answer) {
  if (!process.env.FUZZ_STATS) return;
  const route = req.path
    .split('?')[0]
    .replace(/\/[^/]*$/, '/…')
    .slice(0, 50);
  const code = (res.json as { error?: { code?: string } } | undefined)?.error?.code ?? '';
  const k = `${req.method} ${route} ${res.status} ${code}`;
  stats.set(k, (stats.get(k) ?? 0) + 1);
}

// ---------- charge and storage snapshots ----------

const STORED_TABLES = [
  'jobs',
  'audits',
  'credit_ledger',
  'research_reservations',
  'api_keys',
  'users',
  'rank_projects',
  'gsc_properties',
  'ai_visibility_projects',
];

describe('Hostile-input fuzz: never a 5xx, always the envelope, nothing charged or stored on a refusal (issue 13)', () => {
  let t: TestApp;
  let admin: AdminClient;
  let payer: TestAccount;
  let accountUser: SignedInUser;
  let adminTarget: TestAccount;
  /** Every declared public route (with its documented query names) and a few that do not exist. */
  let PUBLIC_ROUTES: Route[];

  const adminHeaders = () => ({ Authorization: `Bearer ${ADMIN_TOKEN()}` });

  /** What a refusal must not change: credits, quotas and the rows a served request would write. */
  async function snapshot(accountId: number): Promise<string> {
    const [row] = await t.db.query(
      `SELECT (SELECT credits FROM accounts WHERE id = $1) AS credits,
              (SELECT coalesce(string_agg(f::text, '|' ORDER BY f::text), '') FROM feature_usage f WHERE account_id = $1) AS quotas,
              (SELECT coalesce(string_agg(b::text, '|' ORDER BY b::text), '') FROM site_audit_page_budget b WHERE account_id = $1) AS budget,
              ${STORED_TABLES.map((tbl) => `(SELECT count(*) FROM ${tbl}) AS ${tbl}`).join(', ')}`,
      [accountId],
    );
    return JSON.stringify(row);
  }

  /** Sends each request; asserts the envelope; on a refusal the snapshot must be unchanged. */
  async function check(req: Req, accountId: number) {
    const before = await snapshot(accountId);
    const res = await send(t.url, req);
    tally(req, res);
    expectEnvelope(req, res);
    if (res.status >= 400) {
      const after = await snapshot(accountId);
      if (after !== before)
        throw new Error(
          `refusal changed stored state: ${describeReq(req)} → ${res.status} ${res.text.slice(0, 200)}\nbefore ${before}\nafter  ${after}`,
        );
    }
    return res;
  }

  /** The API-level view of charges: GET /api/v1/usage (plan, limits) and the admin account view. */
  async function apiView(acc: TestAccount) {
    const usage = await send(t.url, {
      method: 'GET',
      path: '/api/v1/usage',
      headers: { Authorization: `Bearer ${acc.key}` },
    });
    const view = await send(t.url, {
      method: 'GET',
      path: `/admin/v1/accounts/${acc.id}`,
      headers: adminHeaders(),
    });
    expect(usage.status).toBe(200);
    expect(view.status).toBe(200);
    const u = (usage.json as { data: Record<string, unknown> }).data;
    const v = (view.json as { data: Record<string, unknown> }).data;
    const stripCalls = (o: unknown): unknown =>
      o && typeof o === 'object'
        ? Object.fromEntries(
            Object.entries(o as Record<string, unknown>)
              .filter(([k]) => !/api_calls|calls_used|requests/.test(k))
              .map(([k, val]) => [k, stripCalls(val)]),
          )
        : o;
    return {
      plan: u.plan,
      limit: u.api_calls_limit,
      credits: v.credits,
      usage: stripCalls(v.usage),
    };
  }

  beforeAll(async () => {
    t = await createTestApp({
      now: '2026-11-21T10:00:00Z',
      env: { REDIS_PREFIX: `${process.env.REDIS_PREFIX ?? 'seotest:fuzz'}:fuzz${process.pid}` },
    });
    admin = new AdminClient(t.url);
    const generous = { api_calls_per_month: 'unlimited', requests_per_minute: 1_000_000 };
    payer = await admin.account('pro', generous);
    await admin.credits(payer.id, 1_000);
    const person = await admin.account('pro', generous);
    accountUser = await signIn(t.url, person.id);
    adminTarget = await admin.account('pro', generous);
    const doc = await send(t.url, { method: 'GET', path: '/docs/openapi.json', headers: {} });
    PUBLIC_ROUTES = publicFuzzRoutes(doc.json as ParameterDoc);
  });
  afterAll(async () => {
    agent.destroy();
    if (process.env.FUZZ_STATS)
      console.log(
        [...stats.entries()]
          .sort()
          .map(([k, n]) => `${n}\t${k}`)
          .join('\n'),
      );
    await t.close();
  });

  it('public routes (/api/v1/*) with the key: no 5xx, the envelope, refusals charge and store nothing', async () => {
    const before = await apiView(payer);
    let served = 0;
    await fc.assert(
      fc.asyncProperty(
        requests(PUBLIC_ROUTES, () => payer.id),
        async (req) => {
          req.headers.Authorization = `Bearer ${payer.key}`;
          const res = await check(req, payer.id);
          if (res.status < 400 && req.method === 'POST') served++;
        },
      ),
      fcOptions,
    );
    // API-level comparison over the whole batch, when nothing in it could have been charged.
    if (served === 0) expect(await apiView(payer)).toEqual(before);
  });

  it('site-audit posts that are refused leave no job row', async () => {
    const url = fc.oneof(
      fc.constantFrom(
        'http://127.0.0.1/',
        'http://localhost:6379/',
        'http://169.254.169.254/latest/meta-data/',
        'http://[::1]/',
        'http://0x7f000001/',
        'http://10.0.0.1/',
        'file:///etc/passwd',
        'gopher://127.0.0.1:6379/_INFO',
        'javascript:alert(1)',
        'http://',
        '',
        'x'.repeat(5000),
      ),
      hostileString,
      jsonValue,
    );
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          { url, max_pages: fc.oneof(hostileNumber, hostileString, jsonValue), extra: jsonValue },
          { requiredKeys: ['url'] },
        ),
        contentType,
        async (body, ct) => {
          const jobs = async () =>
            Number(
              (
                await t.db.query('SELECT count(*) AS n FROM jobs WHERE account_id = $1', [payer.id])
              )[0].n,
            );
          const n = await jobs();
          const req: Req = {
            method: 'POST',
            path: '/api/v1/site-audit',
            headers: { Authorization: `Bearer ${payer.key}`, 'Content-Type': ct },
            body: JSON.stringify(body),
          };
          const res = await check(req, payer.id);
          if (res.status >= 400) expect(await jobs()).toBe(n);
        },
      ),
      fcOptions,
    );
  });

  it('public routes without a key or with a broken one: 401-class envelope, never a 5xx', async () => {
    const auth = fc.oneof(
      fc.constant(undefined),
      fc.constantFrom(
        'Bearer',
        'Bearer ',
        'Bearer  x',
        'Basic Zm9vOmJhcg==',
        'bearer sk_live_x',
        'Token x',
        '',
      ),
      headerValue.map((s) => `Bearer ${s}`),
      fc.constant(`Bearer ${'k'.repeat(5000)}`),
    );
    await fc.assert(
      fc.asyncProperty(
        requests(PUBLIC_ROUTES, () => payer.id),
        auth,
        async (req, a) => {
          if (a !== undefined) req.headers.Authorization = a;
          await check(req, payer.id);
        },
      ),
      fcOptions,
    );
  });

  it('account JSON API (/account/v1/*) without a session', async () => {
    await fc.assert(
      fc.asyncProperty(
        requests(ACCOUNT_ROUTES, () => accountUser.accountId),
        async (req) => {
          await check(req, accountUser.accountId);
        },
      ),
      fcOptions,
    );
  });

  it('account JSON API (/account/v1/*) with a session', async () => {
    await fc.assert(
      fc.asyncProperty(
        requests(ACCOUNT_ROUTES, () => accountUser.accountId),
        async (req) => {
          req.headers.Cookie = accountUser.cookie;
          await check(req, accountUser.accountId);
        },
      ),
      fcOptions,
    );
    // The session still works: nothing in the batch broke it.
    const me = await accountUser.get('/me');
    expect(me.status).toBe(200);
  });

  it('admin routes (/admin/v1/*) with the admin token', async () => {
    await fc.assert(
      fc.asyncProperty(
        requests(ADMIN_ROUTES, () => adminTarget.id),
        async (req) => {
          req.headers.Authorization = `Bearer ${ADMIN_TOKEN()}`;
          await check(req, adminTarget.id);
        },
      ),
      fcOptions,
    );
  });

  it('admin routes with a wrong token (a few: failed admin auth is throttled per IP)', async () => {
    await fc.assert(
      fc.asyncProperty(
        requests(ADMIN_ROUTES, () => adminTarget.id),
        fc.constantFrom(
          undefined,
          '',
          'Bearer',
          'Bearer wrong',
          `Bearer ${ADMIN_TOKEN()}x`,
          'Basic YWRtaW46YWRtaW4=',
        ),
        async (req, a) => {
          if (a !== undefined) req.headers.Authorization = a;
          const res = await check(req, adminTarget.id);
          expect([400, 401, 403, 404, 405, 413, 415, 429]).toContain(res.status);
        },
      ),
      { ...fcOptions, numRuns: Math.min(RUNS, 15) },
    );
    // The right token still works afterwards.
    const ok = await send(t.url, {
      method: 'GET',
      path: `/admin/v1/accounts/${adminTarget.id}`,
      headers: adminHeaders(),
    });
    expect(ok.status).toBe(200);
  });
});
