import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { AdminClient, TestAccount, bearer } from '../helpers/fixtures';
import { createTestApp, TestApp } from '../helpers/test-app';
import {
  Connector,
  TOOL_NAMES,
  ToolResult,
  buildConnector,
  connect,
  allText,
  toolError,
  toolOk,
  usedCalls,
} from './mcp-harness';

/**
 * The hosted connector (/mcp, Streamable HTTP, stateless) with an API key as bearer: the same
 * tools as the local package, each tool call running its REST route in process.
 */
const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'raw', version: '1' },
  },
};
const LIST = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };
const ACCEPT = 'application/json, text/event-stream';

describe('hosted MCP endpoint /mcp (Streamable HTTP, API key bearer)', () => {
  let t: TestApp;
  let admin: AdminClient;
  const clients: Client[] = [];
  const locals: Connector[] = [];

  async function hosted(key: string): Promise<Client> {
    const client = new Client({ name: 'hosted-e2e', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), {
        requestInit: { headers: bearer(key) },
      }),
    );
    clients.push(client);
    return client;
  }
  const call = async (c: Client, name: string, args: Record<string, unknown> = {}) =>
    (await c.callTool({ name, arguments: args })) as ToolResult;
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: ACCEPT, ...headers },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    buildConnector();
    t = await createTestApp({ now: '2026-11-20T12:00:00Z' });
    admin = new AdminClient(t.url);
  }, 120_000);

  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    for (const c of locals) await c.close().catch(() => undefined);
    await t?.close();
  });

  it('lists the same tools as the local package: names, schemas, descriptions, annotations', async () => {
    const acc = await admin.account('pro');
    const remote = await hosted(acc.key);
    const local = await connect({ SEO_API_KEY: acc.key, SEO_API_BASE_URL: t.url });
    locals.push(local);
    const a = (await remote.listTools()).tools;
    const b = (await local.client.listTools()).tools;
    expect(a.map((x) => x.name).sort()).toEqual(TOOL_NAMES);
    const byName = (list: typeof a) => Object.fromEntries(list.map((x) => [x.name, x] as const));
    expect(byName(a)).toEqual(byName(b));
    expect(remote.getServerVersion()?.name).toBe('seo-api');
  });

  it('both connectors advertise what is true: tools without listChanged (issue 35)', async () => {
    const acc = await admin.account('pro');
    const remote = await hosted(acc.key);
    const local = await connect({ SEO_API_KEY: acc.key, SEO_API_BASE_URL: t.url });
    locals.push(local);
    for (const c of [remote, local.client]) {
      const capabilities = c.getServerCapabilities();
      expect(capabilities?.tools).toBeDefined();
      expect(capabilities?.tools?.listChanged).toBe(false);
    }
  });

  it('an unknown tool through the SDK client: -32602, its prefix once (issue 36)', async () => {
    const acc = await admin.account('pro');
    const remote = await hosted(acc.key);
    const local = await connect({ SEO_API_KEY: acc.key, SEO_API_BASE_URL: t.url });
    locals.push(local);
    for (const c of [remote, local.client]) {
      const err = await c.callTool({ name: 'test_simple_text' }).then(
        () => null,
        (e: unknown) => e as { code?: number; message?: string },
      );
      expect(err?.code).toBe(-32602);
      expect(err?.message).toBe(
        'MCP error -32602: Unknown tool: test_simple_text. Call tools/list for the tool names.',
      );
    }
  });

  it('calls tools: usage names the key, locations, backlinks with and without fields, errors as tool errors', async () => {
    const acc = await admin.account('pro', undefined, 'hosted key');
    const c = await hosted(acc.key);
    const usage = toolOk(await call(c, 'get_usage'));
    expect(usage.meta.key_name).toBe('hosted key');
    const locations = toolOk(await call(c, 'list_locations'));
    expect(Array.isArray(locations.data) || typeof locations.data === 'object').toBe(true);

    const full = toolOk(await call(c, 'get_backlinks', { domain: 'example.com', limit: 5 }));
    const rows = full.data.backlinks as Array<Record<string, unknown>>;
    expect(rows.length).toBeGreaterThan(0);
    expect(Object.keys(rows[0]).length).toBeGreaterThan(2);
    const slim = await call(c, 'get_backlinks', {
      domain: 'example.com',
      limit: 5,
      fields: ['url_from', 'anchor', 'no_such_member'],
    });
    const slimRows = toolOk(slim).data.backlinks as Array<Record<string, unknown>>;
    expect(slimRows).toHaveLength(rows.length);
    for (const [i, row] of slimRows.entries()) {
      expect(Object.keys(row)).toEqual(['url_from', 'anchor']);
      expect(row.url_from).toEqual(rows[i].url_from);
    }
    // The text is a summary of structuredContent (issue 36, item 6), with the reduced rows.
    expect(allText(slim)).toContain(`data.backlinks: ${slimRows.length} row`);
    expect(allText(slim)).toContain('structuredContent');
    // Other members of data are unchanged.
    expect(toolOk(slim).data.overview).toEqual(full.data.overview);

    const missing = toolError(await call(c, 'get_rank_history', { keyword_id: 999_999 }));
    expect(missing.code).toBe('NOT_FOUND');
    expect(missing.http_status).toBe(404);
    const bad = toolError(await call(c, 'get_job', { job_id: 'job_doesnotexist' }));
    expect(bad.code).toBe('NOT_FOUND');
  });

  it('each POST tool call carries an Idempotency-Key of its own to the REST route', async () => {
    const acc = await admin.account('agency');
    const c = await hosted(acc.key);
    toolOk(await call(c, 'keyword_research', { keyword: 'running shoes', limit: 3 }));
    toolOk(await call(c, 'keyword_research', { keyword: 'running shoes', limit: 3 }));
    const kept = (await t.db.query(
      'SELECT key, state, status FROM idempotency_keys WHERE account_id = $1',
      [acc.id],
    )) as Array<{ key: string; state: string; status: number }>;
    expect(kept).toHaveLength(2);
    expect(kept.map((k) => [k.state, k.status])).toEqual([
      ['complete', 200],
      ['complete', 200],
    ]);
    expect(kept[0].key).not.toBe(kept[1].key);
  });

  it('a refusal carries the REST code, message and meta (per-minute limit)', async () => {
    const acc = await admin.account('pro', { requests_per_minute: 1 });
    const c = await hosted(acc.key);
    toolOk(await call(c, 'get_usage'));
    const limited = toolError(await call(c, 'get_usage'));
    const rest = await t.http().get('/api/v1/usage').set(bearer(acc.key));
    expect(rest.status).toBe(429);
    expect(limited.code).toBe(rest.body.error.code);
    expect(limited.message).toBe(
      rest.body.error.message.replace(/\d+ s\./, limited.message.match(/\d+ s\./)![0]),
    );
    expect(limited.meta.limit).toBe(1);
    expect(typeof limited.meta.retry_after).toBe('number');
  });

  describe("a caller's mistakes in tools/call (issue 21)", () => {
    const rpc = async (key: string, params: unknown) => {
      const res = await post(
        { jsonrpc: '2.0', id: 7, method: 'tools/call', params },
        { authorization: `Bearer ${key}`, 'mcp-protocol-version': '2025-06-18' },
      );
      expect(res.status).toBe(200);
      const text = await res.text();
      const data = text.startsWith('event:') ? text.slice(text.indexOf('data: ') + 6) : text;
      return JSON.parse(data) as {
        error?: { code: number; message: string };
        result?: ToolResult;
      };
    };

    it.each([
      [{ name: 'get_backlinks', arguments: 'example.com' }, 'arguments must be an object'],
      [{ name: 'get_backlinks', arguments: ['example.com'] }, 'arguments must be an object'],
      [{ name: 'get_backlinks', arguments: null }, 'arguments must be an object'],
      [{ name: 5 }, 'name must be the name of a tool'],
      [{}, 'name must be the name of a tool'],
      [{ name: 'no_such_tool' }, 'Unknown tool: no_such_tool'],
    ])('params %j: JSON-RPC -32602 Invalid params in one sentence', async (params, says) => {
      const acc = await admin.account('pro');
      const body = await rpc(acc.key, params);
      expect(body.error?.code).toBe(-32602);
      expect(body.error?.message).toContain(says);
      expect(body.error?.message).not.toMatch(/[\n[{]/);
      expect(body.error?.message).not.toMatch(/MCP error/);
      expect(await usedCalls(admin, acc)).toBe(0);
    });

    const request = async (key: string, message: Record<string, unknown>) => {
      const res = await post(
        { jsonrpc: '2.0', id: 8, ...message },
        { authorization: `Bearer ${key}`, 'mcp-protocol-version': '2025-06-18' },
      );
      const text = await res.text();
      const data = text.startsWith('event:') ? text.slice(text.indexOf('data: ') + 6) : text;
      return {
        status: res.status,
        body: JSON.parse(data) as { error?: { code: number; message: string } },
      };
    };

    it.each([
      [{ method: 'tools/call' }, 'Invalid params: tools/call needs params'],
      [
        { method: 'tools/list', params: { cursor: 5 } },
        'Invalid params: params.cursor is not valid for tools/list',
      ],
      [{ method: 'initialize' }, 'Invalid params: initialize needs params.'],
      [
        { method: 'initialize', params: { ...INIT.params, protocolVersion: 5 } },
        'Invalid params: params.protocolVersion is not valid for initialize',
      ],
    ])(
      '%j: -32602 with one sentence, never -32603 with a schema dump (issue 35)',
      async (message, says) => {
        const acc = await admin.account('pro');
        const { body } = await request(acc.key, message);
        expect(body.error?.code).toBe(-32602);
        expect(body.error?.message.startsWith(says)).toBe(true);
        expect(body.error?.message).not.toMatch(/[\n[\]{}]|MCP error/);
        expect(body.error!.message.length).toBeLessThanOrEqual(160);
        expect(await usedCalls(admin, acc)).toBe(0);
      },
    );

    it('arguments that fail the tool schema: isError VALIDATION_ERROR with details, nothing counted', async () => {
      const acc = await admin.account('pro');
      const body = await rpc(acc.key, {
        name: 'get_backlinks',
        arguments: { domain: 5, limit: 'many', page: 0 },
      });
      expect(body.error).toBeUndefined();
      const e = toolError(body.result!);
      expect(e).toMatchObject({ code: 'VALIDATION_ERROR', http_status: null });
      expect((e.details as Array<{ field: string }>).map((d) => d.field).sort()).toEqual([
        'domain',
        'limit',
        'page',
      ]);
      const missing = toolError((await rpc(acc.key, { name: 'get_rank_history' })).result!);
      expect(missing.code).toBe('VALIDATION_ERROR');
      expect(missing.details).toEqual([{ field: 'keyword_id', message: expect.any(String) }]);
      expect(await usedCalls(admin, acc)).toBe(0);
      // The same call through the SDK client: a tool error, not a protocol error.
      const c = await hosted(acc.key);
      expect(toolError(await call(c, 'query_gsc', { property_id: 'x' })).code).toBe(
        'VALIDATION_ERROR',
      );
      toolOk(await call(c, 'get_usage', { unknown_member: 1 })); // extra members are ignored
    });
  });

  describe('HTTP rules of /mcp', () => {
    const challenge = (base: string) =>
      `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp", scope="seo:read seo:write"`;

    it('401 without a bearer, with the resource-metadata challenge', async () => {
      const res = await post(INIT);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe(challenge(t.config.publicBaseUrl));
    });

    it('401 with a bad bearer (unknown key, random token, revoked key, query-string key): error="invalid_token"', async () => {
      const acc = await admin.account('pro');
      const revoked = await admin.account('pro');
      expect((await admin.delete(`/api-keys/${revoked.keyId}`)).status).toBeLessThan(300);
      for (const token of [acc.key.slice(0, -2) + 'xx', 'some-opaque-token', revoked.key]) {
        const res = await post(INIT, bearer(token));
        expect(res.status).toBe(401);
        expect(res.headers.get('www-authenticate')).toBe(
          `${challenge(t.config.publicBaseUrl)}, error="invalid_token"`,
        );
      }
      const query = await fetch(`${t.url}/mcp?api_key=${acc.key}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: ACCEPT },
        body: JSON.stringify(INIT),
      });
      expect(query.status).toBe(401);
    });

    it('403 for Free and Starter plans', async () => {
      for (const plan of ['free', 'starter'] as const) {
        const acc = await admin.account(plan);
        expect((await post(INIT, bearer(acc.key))).status).toBe(403);
      }
    });

    it('403 for a cross-site Origin; PUBLIC_BASE_URL and loopback origins pass', async () => {
      const acc = await admin.account('pro');
      const base = new URL(t.config.publicBaseUrl).origin;
      expect(
        (await post(INIT, { ...bearer(acc.key), origin: 'https://evil.example' })).status,
      ).toBe(403);
      expect((await post(INIT, { ...bearer(acc.key), origin: 'null' })).status).toBe(403);
      expect((await post(INIT, { ...bearer(acc.key), origin: base })).status).toBe(200);
      expect(
        (await post(INIT, { ...bearer(acc.key), origin: 'http://localhost:6274' })).status,
      ).toBe(200);
    });

    it('400 for an unsupported MCP-Protocol-Version; 2025-06-18, 2025-11-25 and 2026-07-28 are served', async () => {
      const acc = await admin.account('pro');
      const bad = await post(LIST, { ...bearer(acc.key), 'mcp-protocol-version': '1999-01-01' });
      expect(bad.status).toBe(400);
      for (const v of ['2025-06-18', '2025-11-25', '2026-07-28']) {
        const res = await post(LIST, { ...bearer(acc.key), 'mcp-protocol-version': v });
        expect(res.status).toBe(200);
        expect(await res.text()).toContain('get_backlinks');
      }
    });

    it('stateless: tools/list works without initialize or session; no Mcp-Session-Id is issued; GET and DELETE are 405', async () => {
      const acc = await admin.account('pro');
      const init = await post(INIT, bearer(acc.key));
      expect(init.status).toBe(200);
      expect(init.headers.get('mcp-session-id')).toBeNull();
      expect(await init.text()).toContain('"protocolVersion":"2025-06-18"');
      for (const method of ['GET', 'DELETE']) {
        const res = await fetch(`${t.url}/mcp`, {
          method,
          headers: { ...bearer(acc.key), accept: ACCEPT },
        });
        expect(res.status).toBe(405);
      }
    });

    it('a body that is not JSON: JSON-RPC -32700 Parse error, after the Origin and bearer checks (issue 36)', async () => {
      const acc = await admin.account('pro');
      for (const body of ['{"jsonrpc":', 'not json at all', '{"a":1}}']) {
        const res = await fetch(`${t.url}/mcp`, {
          method: 'POST',
          headers: { ...bearer(acc.key), 'content-type': 'application/json', accept: ACCEPT },
          body,
        });
        expect(res.status).toBe(400);
        expect(res.headers.get('content-type')).toMatch(/^application\/json/);
        expect(await res.json()).toEqual({
          jsonrpc: '2.0',
          error: { code: -32700, message: 'Parse error: the body is not valid JSON.' },
          id: null,
        });
      }
      const anonymous = await fetch(`${t.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: ACCEPT },
        body: '{"jsonrpc":',
      });
      expect(anonymous.status).toBe(401);
      const crossSite = await fetch(`${t.url}/mcp`, {
        method: 'POST',
        headers: {
          ...bearer(acc.key),
          origin: 'https://evil.example',
          'content-type': 'application/json',
        },
        body: '{"jsonrpc":',
      });
      expect(crossSite.status).toBe(403);
      // The REST API keeps its envelope for the same body.
      const rest = await fetch(`${t.url}/api/v1/keyword-research`, {
        method: 'POST',
        headers: { ...bearer(acc.key), 'content-type': 'application/json' },
        body: '{"jsonrpc":',
      });
      expect(rest.status).toBe(400);
      expect(((await rest.json()) as { error: { code: string } }).error.code).toBe('BAD_REQUEST');
    });

    it('CORS: an allowed loopback origin may send the MCP headers and read WWW-Authenticate; other origins get no CORS (issue 36)', async () => {
      const origin = 'http://localhost:6274';
      const preflight = await fetch(`${t.url}/mcp`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers':
            'authorization,content-type,mcp-protocol-version,mcp-session-id,last-event-id',
        },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe(origin);
      const allowed = (preflight.headers.get('access-control-allow-headers') ?? '')
        .toLowerCase()
        .split(/\s*,\s*/);
      for (const h of [
        'authorization',
        'content-type',
        'mcp-protocol-version',
        'mcp-session-id',
        'last-event-id',
      ]) {
        expect(allowed).toContain(h);
      }
      expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');

      const unauthenticated = await post(INIT, { origin });
      expect(unauthenticated.status).toBe(401);
      expect(unauthenticated.headers.get('access-control-allow-origin')).toBe(origin);
      const exposed = (unauthenticated.headers.get('access-control-expose-headers') ?? '')
        .toLowerCase()
        .split(/\s*,\s*/);
      expect(exposed).toContain('www-authenticate');
      expect(exposed).toContain('mcp-session-id');

      const acc = await admin.account('pro');
      const ok = await post(INIT, { ...bearer(acc.key), origin: 'http://127.0.0.1:6274' });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:6274');

      const evil = await fetch(`${t.url}/mcp`, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://evil.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization,mcp-protocol-version',
        },
      });
      expect(evil.headers.get('access-control-allow-origin')).toBeNull();
      expect(evil.headers.get('access-control-allow-headers')).toBeNull();
      // The REST API's CORS is unchanged.
      const rest = await fetch(`${t.url}/api/v1/usage`, {
        method: 'OPTIONS',
        headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
      });
      expect(rest.headers.get('access-control-allow-origin')).toBe('*');
    });

    it('bad JSON-RPC input is a 4xx, never a 500', async () => {
      const acc = await admin.account('pro');
      const junk = await fetch(`${t.url}/mcp`, {
        method: 'POST',
        headers: { ...bearer(acc.key), 'content-type': 'application/json', accept: ACCEPT },
        body: '{"jsonrpc":',
      });
      expect(junk.status).toBeGreaterThanOrEqual(400);
      expect(junk.status).toBeLessThan(500);
      const notRpc = await post({ hello: 'world' }, bearer(acc.key));
      expect(notRpc.status).toBeGreaterThanOrEqual(400);
      expect(notRpc.status).toBeLessThan(500);
    });
  });

  it('the monthly meter counts one call per tool call', async () => {
    const acc = await admin.account('pro');
    const c = await hosted(acc.key);
    const before = await usedCalls(admin, acc);
    await call(c, 'get_usage');
    await call(c, 'list_gsc_properties');
    expect((await usedCalls(admin, acc)) - before).toBe(2);
  });
});

export type { TestAccount };
