import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { AdminClient, TestAccount, bearer } from '../helpers/fixtures';
import { createTestApp, TestApp } from '../helpers/test-app';
import { ToolResult } from './mcp-harness';

/**
 * A hosted tool call and the REST call it stands for leave the same marks: the monthly meter,
 * the per-minute bucket of that endpoint, the feature quotas and the credits. The same series
 * runs once over REST and once over /mcp on two equal fresh accounts; then both are compared.
 */
interface Step {
  tool: string;
  args: Record<string, unknown>;
  rest: { method: 'get' | 'post'; path: string; query?: Record<string, unknown>; body?: unknown };
}

const STEPS: Step[] = [
  // quota (backlinks_per_month overridden to 1), then a credit, then page 2 (always a credit)
  {
    tool: 'get_backlinks',
    args: { domain: 'example.com' },
    rest: { method: 'get', path: '/backlinks', query: { domain: 'example.com' } },
  },
  {
    tool: 'get_backlinks',
    args: { domain: 'example.org' },
    rest: { method: 'get', path: '/backlinks', query: { domain: 'example.org' } },
  },
  {
    tool: 'get_backlinks',
    args: { domain: 'example.org', page: 2 },
    rest: { method: 'get', path: '/backlinks', query: { domain: 'example.org', page: 2 } },
  },
  // a cache hit: counted call, no quota or credit
  {
    tool: 'get_backlinks',
    args: { domain: 'example.com' },
    rest: { method: 'get', path: '/backlinks', query: { domain: 'example.com' } },
  },
  {
    tool: 'keyword_research',
    args: { keyword: 'running shoes' },
    rest: { method: 'post', path: '/keyword-research', body: { keyword: 'running shoes' } },
  },
  // keyword quota (overridden to 1) used up → QUOTA_EXCEEDED on both
  {
    tool: 'keyword_research',
    args: { keyword: 'trail shoes' },
    rest: { method: 'post', path: '/keyword-research', body: { keyword: 'trail shoes' } },
  },
  { tool: 'list_gsc_properties', args: {}, rest: { method: 'get', path: '/gsc/properties' } },
  { tool: 'get_usage', args: {}, rest: { method: 'get', path: '/usage' } },
];

type Meta = Record<string, unknown>;
interface Structured {
  data?: unknown;
  meta: Meta;
  error: { code: string; message: string; http_status: number | null; meta: Meta };
}

const OVERRIDES = {
  backlinks_per_month: 1,
  keyword_research_per_month: 1,
  requests_per_minute: 50,
};

describe('hosted /mcp tool calls leave the same marks as their REST calls', () => {
  let t: TestApp;
  let admin: AdminClient;
  let client: Client | undefined;

  beforeAll(async () => {
    t = await createTestApp({ now: '2026-11-20T12:00:00Z' });
    admin = new AdminClient(t.url);
  }, 120_000);

  afterAll(async () => {
    await client?.close().catch(() => undefined);
    await t?.close();
  });

  const rest = (acc: TestAccount, s: Step['rest']) => {
    const r =
      s.method === 'get' ? t.http().get(`/api/v1${s.path}`) : t.http().post(`/api/v1${s.path}`);
    if (s.query) r.query(s.query);
    r.set(bearer(acc.key));
    return s.body ? r.send(s.body as object) : r;
  };

  /** What the account's state says: admin usage figures and the per-minute remaining of each endpoint. */
  async function marks(acc: TestAccount) {
    const usage = (await admin.get(`/accounts/${acc.id}`)).body.data.usage;
    // One probe per endpoint bucket (each probe costs the same on both accounts).
    const remaining: Record<string, string> = {};
    for (const [name, probe] of [
      ['backlinks', { method: 'get', path: '/backlinks', query: { domain: 'example.com' } }],
      [
        'keyword-research',
        { method: 'post', path: '/keyword-research', body: { keyword: 'running shoes' } },
      ],
      ['gsc/properties', { method: 'get', path: '/gsc/properties' }],
      ['usage', { method: 'get', path: '/usage' }],
    ] as const) {
      const res = await rest(acc, probe as Step['rest']);
      remaining[name] = String(res.headers['x-ratelimit-remaining']);
    }
    return { usage, remaining };
  }

  it('meter count, per-minute remaining, feature quotas and credits are equal after the same series', async () => {
    const viaRest = await admin.account('pro', OVERRIDES, 'rest key');
    const viaMcp = await admin.account('pro', OVERRIDES, 'mcp key');
    await admin.credits(viaRest.id, 5);
    await admin.credits(viaMcp.id, 5);

    client = new Client({ name: 'marks-e2e', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), {
        requestInit: { headers: bearer(viaMcp.key) },
      }),
    );

    for (const step of STEPS) {
      const r = await rest(viaRest, step.rest);
      const m = (await client.callTool({ name: step.tool, arguments: step.args })) as ToolResult;
      const sc = m.structuredContent as Structured;
      if (r.body.success) {
        expect(m.isError).toBeFalsy();
        const { request_id: _a, timestamp: _b, key_name: _c, ...restMeta } = r.body.meta;
        const { request_id: _d, timestamp: _e, key_name: _f, ...mcpMeta } = sc.meta;
        expect(mcpMeta).toEqual(restMeta);
        expect(sc.data).toEqual(r.body.data);
      } else {
        expect(m.isError).toBe(true);
        expect(sc.error.code).toBe(r.body.error.code);
        expect(sc.error.message).toBe(r.body.error.message);
        expect(sc.error.http_status).toBe(r.status);
        const { request_id: _a, timestamp: _b, ...restMeta } = r.body.meta;
        const { request_id: _d, timestamp: _e, ...mcpMeta } = sc.error.meta;
        expect(mcpMeta).toEqual(restMeta);
      }
    }

    const a = await marks(viaRest);
    const b = await marks(viaMcp);
    expect(b).toEqual(a);
    // The series did what it should: 8 counted calls (usage is read before the probes), backlinks quota 1 + 2 credits.
    expect(a.usage.api_calls_per_month).toBe(STEPS.length);
    expect(a.usage.backlinks_per_month).toBe(1);
    expect(a.usage.keyword_research_per_month).toBe(1);
    expect(a.usage.credits).toBe(3);
    expect(Number(a.remaining.backlinks)).toBe(50 - 5);
  });
});
