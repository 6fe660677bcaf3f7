import { closedPort } from '../site-audit/fixture-site';
import { AdminClient, TestAccount } from '../helpers/fixtures';
import { createTestApp, TestApp } from '../helpers/test-app';
import { YourDataAdmin } from '../your-data/your-data-fixtures';
import {
  Connector,
  TOOL_NAMES,
  allText,
  buildConnector,
  connect,
  toolError,
  toolOk,
  usedCalls as countCalls,
} from './mcp-harness';

/**
 * Error mapping of the MCP connector (spec: Errors, Limits): every API refusal becomes an MCP tool
 * error (isError) carrying the API code, message and meta; the server never crashes on them.
 */
const ROOMY = { api_calls_per_month: 'unlimited', requests_per_minute: 100_000 };

describe('MCP connector errors: API codes, messages and meta as tool errors', () => {
  let t: TestApp;
  let admin: AdminClient;
  let yd: YourDataAdmin;
  const open: Connector[] = [];
  const connectAs = async (key: string, baseUrl = t.url) => {
    const c = await connect({ SEO_API_KEY: key, SEO_API_BASE_URL: baseUrl });
    open.push(c);
    return c;
  };
  const usedCalls = (acc: TestAccount) => countCalls(admin, acc);
  const ok = toolOk;
  const err = toolError;

  beforeAll(async () => {
    buildConnector();
    t = await createTestApp({ now: '2026-11-20T12:00:00Z' });
    admin = new AdminClient(t.url);
    yd = new YourDataAdmin(admin);
  }, 120_000);

  afterAll(async () => {
    for (const c of open) await c.close().catch(() => undefined);
    await t?.close();
  });

  it('401 UNAUTHORIZED for a wrong key; the key never appears on stderr', async () => {
    const c = await connectAs('sk_wrong_key_abcdef0123456789');
    const e = err(await c.call('get_usage'));
    expect(e).toMatchObject({ code: 'UNAUTHORIZED', http_status: 401 });
    expect(c.stderr()).not.toContain('sk_wrong_key_abcdef0123456789');
  });

  it('429 RATE_LIMITED per minute carries meta.retry_after and meta.limit', async () => {
    const acc = await admin.account('pro', {
      requests_per_minute: 1,
      api_calls_per_month: 'unlimited',
    });
    const c = await connectAs(acc.key);
    ok(await c.call('get_usage'));
    const res = await c.call('get_usage');
    const e = err(res);
    expect(e).toMatchObject({
      code: 'RATE_LIMITED',
      http_status: 429,
      meta: expect.objectContaining({ limit: 1 }),
    });
    expect(Number.isInteger(e.meta.retry_after)).toBe(true);
    expect(e.meta.retry_after as number).toBeGreaterThanOrEqual(1);
    expect(allText(res)).toContain(`retry_after=${String(e.meta.retry_after)}`);
  });

  it('monthly cap: research refused with RATE_LIMITED + meta.resets_at, your-data still served', async () => {
    const acc = await admin.account('pro', {
      api_calls_per_month: 1,
      requests_per_minute: 100_000,
    });
    const c = await connectAs(acc.key);
    ok(await c.call('get_usage'));
    const e = err(await c.call('keyword_research', { keyword: 'shoes' }));
    expect(e).toMatchObject({
      code: 'RATE_LIMITED',
      http_status: 429,
      meta: expect.objectContaining({ resets_at: '2026-12-01' }),
    });
    expect(ok(await c.call('list_rank_keywords')).data).toMatchObject({ count: 0 });
    expect(ok(await c.call('list_ai_visibility_projects')).data).toMatchObject({ count: 0 });
  });

  it('429 QUOTA_EXCEEDED when the keyword-research quota is used up, with meta.resets_at', async () => {
    const acc = await admin.account('pro', { ...ROOMY, keyword_research_per_month: 1 });
    const c = await connectAs(acc.key);
    ok(await c.call('keyword_research', { keyword: 'first keyword' }));
    const e = err(await c.call('keyword_research', { keyword: 'second keyword' }));
    expect(e).toMatchObject({
      code: 'QUOTA_EXCEEDED',
      http_status: 429,
      meta: expect.objectContaining({ resets_at: '2026-12-01' }),
    });
  });

  it('422 from the API: VALIDATION_ERROR with details (impossible date), UNSUPPORTED_LOCATION', async () => {
    const acc = await admin.account('pro', ROOMY);
    const c = await connectAs(acc.key);
    const property = await yd.gscProperty(acc.id);
    const e = err(await c.call('query_gsc', { property_id: property, from: '2026-02-30' }));
    expect(e).toMatchObject({ code: 'VALIDATION_ERROR', http_status: 422 });
    expect(JSON.stringify(e.details)).toContain('from');
    // 2999 is within the schema's 2001-2999 (2000 + ISO numeric) but no market.
    const loc = err(await c.call('keyword_research', { keyword: 'shoes', location_code: 2999 }));
    expect(loc).toMatchObject({ code: 'UNSUPPORTED_LOCATION', http_status: 422 });
  });

  it('out-of-range arguments are refused by the tool schema before any API call (nothing metered)', async () => {
    const acc = await admin.account('pro', ROOMY);
    const c = await connectAs(acc.key);
    const before = await usedCalls(acc);
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['get_backlinks', { domain: 'example.com', limit: 201 }, 'limit'],
      ['get_rank_history', { keyword_id: 1, days: 366 }, 'days'],
      ['keyword_research', { keyword: 'x'.repeat(201) }, 'keyword'],
      ['query_gsc', { property_id: 1, from: '20-11-2026' }, 'from'],
      ['get_rank_history', {}, 'keyword_id'],
      ['get_job', { job_id: '../usage' }, 'job_id'],
      // real bounds (issue 36, item 6): markets are 2000 + ISO numeric, crawls at most the largest plan's cap
      ['keyword_research', { keyword: 'shoes', location_code: 1 }, 'location_code'],
      ['start_site_audit', { url: 'https://example.com/', max_pages: 2001 }, 'max_pages'],
    ];
    for (const [name, args, field] of cases) {
      const res = await c.call(name, args);
      // The spec's VALIDATION_ERROR, as the REST route's 422 would carry it (issue 21).
      const e = err(res);
      expect(e).toMatchObject({ code: 'VALIDATION_ERROR', http_status: null });
      expect(e.details).toEqual([{ field, message: expect.any(String) }]);
    }
    expect(await usedCalls(acc)).toBe(before);
  });

  it("404 NOT_FOUND for another account's keyword, property and project", async () => {
    const owner = await admin.account('pro', ROOMY);
    const other = await admin.account('pro', ROOMY);
    const kw = await yd.keyword(await yd.rankProject(owner.id), 'mine');
    const property = await yd.gscProperty(owner.id);
    const project = await yd.aiProject(owner.id);
    const c = await connectAs(other.key);
    for (const [name, args] of [
      ['get_rank_history', { keyword_id: kw }],
      ['query_gsc', { property_id: property }],
      ['get_share_of_voice', { project_id: project }],
      ['list_rank_keywords', { project_id: 2_000_000_000 }],
    ] as const) {
      const e = err(await c.call(name, args));
      expect({ name, code: e.code, status: e.http_status }).toEqual({
        name,
        code: 'NOT_FOUND',
        status: 404,
      });
    }
  });

  it('an unreachable API is a clear NETWORK_ERROR tool error and the server keeps serving', async () => {
    const port = await closedPort();
    const c = await connectAs('some-key', `http://127.0.0.1:${port}`);
    const e = err(await c.call('get_usage'));
    expect(e).toMatchObject({ code: 'NETWORK_ERROR', http_status: null });
    expect(e.message).toContain(`127.0.0.1:${port}`);
    expect((await c.client.listTools()).tools).toHaveLength(TOOL_NAMES.length);
    expect(err(await c.call('list_gsc_properties')).code).toBe('NETWORK_ERROR');
  });
});
