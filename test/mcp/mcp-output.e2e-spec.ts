import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { AdminClient, TestAccount, bearer } from '../helpers/fixtures';
import { createTestApp, TestApp } from '../helpers/test-app';
import { YourDataAdmin, scanBody } from '../your-data/your-data-fixtures';
import {
  Connector,
  TOOL_NAMES,
  ToolResult,
  allText,
  buildConnector,
  connect,
  toolError,
  toolOk,
} from './mcp-harness';

/**
 * Issue 36, item 6: tools an assistant can use well, on both connectors (the local stdio
 * package and the hosted /mcp), driven by the SDK client, which validates every
 * structuredContent against the tool's outputSchema (its validators are cached by tools/list):
 * - every tool declares an outputSchema, the REST route's success answer; a real answer of
 *   every tool conforms on both connectors, and both answer alike;
 * - a 500-keyword answer is sent once: structuredContent whole, the text a short summary;
 * - schema bounds are real numbers; descriptions state units;
 * - get_usage at the monthly cap is RATE_LIMITED with resets_at and the allowance, as its
 *   description says.
 */
const ROOMY = { api_calls_per_month: 'unlimited', requests_per_minute: 100_000 };
type Listed = {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
};

describe('MCP tools an assistant can use well (issue 36, item 6): both connectors', () => {
  let t: TestApp;
  let admin: AdminClient;
  let acc: TestAccount;
  let local: Connector;
  let hosted: Client;
  const clients: Client[] = [];
  const locals: Connector[] = [];
  let ids: { keyword: number; property: number; project: number };

  async function hostedClient(key: string): Promise<Client> {
    const client = new Client({ name: 'hosted-output-e2e', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), {
        requestInit: { headers: bearer(key) },
      }),
    );
    clients.push(client);
    await client.listTools(); // caches the output validators
    return client;
  }
  async function localClient(key: string): Promise<Connector> {
    const c = await connect({ SEO_API_KEY: key, SEO_API_BASE_URL: t.url });
    locals.push(c);
    return c;
  }
  const hostedCall = async (c: Client, name: string, args: Record<string, unknown> = {}) =>
    (await c.callTool({ name, arguments: args })) as ToolResult;
  const texts = (res: ToolResult) =>
    (res.content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  /** What differs between two calls by design: the request's id and time. */
  const sameness = (text: string) =>
    text
      .replace(/"request_id":"[^"]*"/g, '"request_id":"…"')
      .replace(/"timestamp":"[^"]*"/g, '"timestamp":"…"');

  beforeAll(async () => {
    buildConnector();
    t = await createTestApp({
      now: '2026-11-20T12:00:00Z',
      env: { AUDIT_ALLOW_PRIVATE_NETWORKS: 'true' },
    });
    admin = new AdminClient(t.url);
    const yd = new YourDataAdmin(admin);
    acc = await admin.account('agency', ROOMY, 'assistant');
    const project = await yd.rankProject(acc.id, 'example.com', 'Example');
    const keywords: number[] = [];
    for (let i = 0; i < 500; i += 25) {
      keywords.push(
        ...(await Promise.all(
          Array.from({ length: 25 }, (_, j) =>
            yd.keyword(project, `running shoes model ${String(i + j + 1).padStart(3, '0')}`, {
              search_volume: 1000 + i + j,
              difficulty: 40,
              cpc: 1.25,
            }),
          ),
        )),
      );
    }
    await yd.checks(keywords[0], [
      { check_date: '2026-11-18', position: 7 },
      {
        check_date: '2026-11-19',
        position: 4,
        landing_page: 'https://example.com/shoes',
        gsc_clicks: 10,
        gsc_impressions: 400,
        gsc_ctr: 2.5,
      },
    ]);
    const property = await yd.gscProperty(acc.id);
    await yd.gscRows(property, [
      {
        date: '2026-11-10',
        query: 'shoes',
        page: 'https://example.com/',
        country: 'usa',
        device: 'DESKTOP',
        clicks: 5,
        impressions: 50,
        position: 3,
      },
    ]);
    const aiProject = await yd.aiProject(acc.id);
    await yd.scan(
      aiProject,
      scanBody('2026-11-15', {
        competitors: [
          {
            competitor_name: 'Rival',
            competitor_domain: 'rival.com',
            mention_count: 10,
            visibility_score: 30,
            avg_position: 3,
          },
        ],
      }),
    );
    ids = { keyword: keywords[0], property, project: aiProject };
    local = await localClient(acc.key);
    hosted = await hostedClient(acc.key);
  }, 180_000);

  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    for (const c of locals) await c.close().catch(() => undefined);
    await t?.close();
  });

  it('every tool declares an outputSchema, the same on both connectors; bounds are real numbers', async () => {
    const a = (await local.client.listTools()).tools as Listed[];
    const b = (await hosted.listTools()).tools as Listed[];
    expect(a.map((x) => x.name).sort()).toEqual(TOOL_NAMES);
    expect(Object.fromEntries(a.map((x) => [x.name, x]))).toEqual(
      Object.fromEntries(b.map((x) => [x.name, x])),
    );
    const bounds: number[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object') {
        for (const [key, value] of Object.entries(node)) {
          if (key === 'minimum' || key === 'maximum') bounds.push(value as number);
          walk(value);
        }
      }
    };
    type Validating = { getToolOutputValidator(name: string): unknown };
    for (const tool of a) {
      // both SDK clients hold a validator of the tool's outputSchema, so every call below is checked
      for (const c of [local.client, hosted]) {
        expect((c as unknown as Validating).getToolOutputValidator(tool.name)).toBeDefined();
      }
      expect(tool.outputSchema).toMatchObject({
        type: 'object',
        properties: { data: expect.any(Object), meta: expect.any(Object) },
      });
      walk([tool.inputSchema, tool.outputSchema]);
    }
    for (const bound of bounds) {
      expect(Number.isSafeInteger(bound)).toBe(true);
      expect(Math.abs(bound)).toBeLessThanOrEqual(2_147_483_647);
    }
    const input = (name: string) =>
      a.find((x) => x.name === name)!.inputSchema.properties as Record<
        string,
        Record<string, unknown>
      >;
    expect(input('start_site_audit').max_pages.maximum).toBe(2000);
    expect(input('keyword_research').location_code).toMatchObject({
      minimum: 2001,
      maximum: 2999,
    });
    const description = (name: string) => a.find((x) => x.name === name)!.description!;
    expect(description('keyword_research')).toMatch(/competition \(paid\) 0-1/);
    expect(description('list_rank_keywords')).toMatch(/gsc_ctr\s+in percent/);
    expect(description('list_rank_keywords')).toMatch(/at most `limit` keywords/);
    expect(description('get_share_of_voice')).toMatch(/mention_rate.*in percent/);
    expect(description('get_usage')).toContain('RATE_LIMITED with meta.resets_at');
  });

  it('a real answer of every tool conforms to its outputSchema on both connectors, and both answer alike', async () => {
    const calls: Array<[string, Record<string, unknown>]> = [
      ['get_usage', {}],
      ['list_locations', {}],
      ['get_backlinks', { domain: 'example.com', limit: 5 }],
      ['keyword_research', { keyword: 'running shoes', limit: 3 }],
      ['list_rank_keywords', { limit: 5 }],
      ['list_rank_keywords', { limit: 5, fields: ['keyword', 'gsc_ctr'] }],
      ['get_rank_history', { keyword_id: ids.keyword }],
      ['list_gsc_properties', {}],
      ['query_gsc', { property_id: ids.property, from: '2026-11-01', to: '2026-11-20' }],
      ['query_gsc', { property_id: ids.property, fields: ['key'] }],
      ['list_ai_visibility_projects', {}],
      ['get_share_of_voice', { project_id: ids.project }],
    ];
    for (const [name, args] of calls) {
      // callTool throws when structuredContent does not fit the outputSchema
      const a = await local.call(name, args);
      const b = await hostedCall(hosted, name, args);
      const x = toolOk(a);
      const y = toolOk(b);
      // get_usage counts the call it answers: the second one is one more
      const used = (data: Record<string, unknown>) =>
        name === 'get_usage' ? Number(data.api_calls_used) : 0;
      expect(used(y.data)).toBe(name === 'get_usage' ? used(x.data) + 1 : 0);
      expect({ ...y.data, api_calls_used: 0 }).toEqual({ ...x.data, api_calls_used: 0 });
      if (name !== 'get_backlinks' && name !== 'keyword_research' && name !== 'get_usage') {
        // research answers differ in meta.cached/charged (the second is a cache hit)
        expect(sameness(texts(b))).toBe(sameness(texts(a)));
      }
      expect(texts(a)).toContain('structuredContent');
    }

    // site audits: a job that stays queued (no worker here)
    const started: string[] = [];
    for (const call of [
      (n: string, args: Record<string, unknown>) => local.call(n, args),
      (n: string, args: Record<string, unknown>) => hostedCall(hosted, n, args),
    ]) {
      const accepted = toolOk(await call('start_site_audit', { url: 'http://127.0.0.1:9/' }));
      expect(accepted.data).toMatchObject({ status: 'queued' });
      const jobId = String(accepted.data.job_id);
      started.push(jobId);
      expect(toolOk(await call('get_job', { job_id: jobId })).data).toMatchObject({
        job_id: jobId,
        status: 'queued',
      });
      const run = toolOk(
        await call('run_site_audit', { url: 'http://127.0.0.1:9/', max_wait_seconds: 0 }),
      );
      expect(run).toMatchObject({ finished: false, data: { status: 'queued' } });
      const polled = await call('run_site_audit', {
        url: 'http://127.0.0.1:9/',
        max_wait_seconds: 1,
        poll_interval_seconds: 5,
      });
      expect(toolOk(polled)).toMatchObject({ finished: false });
      expect(allText(polled)).toContain('still running');
    }
    expect(new Set(started).size).toBe(2);
  });

  it('a 500-keyword answer: structuredContent whole on both connectors, the text a short summary', async () => {
    for (const res of [
      await local.call('list_rank_keywords', { limit: 500 }),
      await hostedCall(hosted, 'list_rank_keywords', { limit: 500 }),
    ]) {
      const body = toolOk(res);
      expect(body.data.count).toBe(500);
      expect(body.data.keywords as unknown[]).toHaveLength(500);
      const structured = Buffer.byteLength(JSON.stringify(res.structuredContent));
      const text = Buffer.byteLength(texts(res));
      expect(structured).toBeGreaterThan(200_000);
      expect(text).toBeLessThan(4_000);
      expect(texts(res)).toContain('data.keywords: 500 rows, the first');
      expect(texts(res)).toContain('data.count: 500');
      expect(texts(res)).toContain('running shoes model 001');
      expect(texts(res)).toContain('complete answer');
      expect(texts(res)).toContain('structuredContent');
      // the whole tool result carries the rows once (before: also as escaped JSON text)
      const result = Buffer.byteLength(JSON.stringify(res));
      expect(result).toBeLessThan(structured + 5_000);
    }
  });

  it('list_rank_keywords pages (offset, meta.total, meta.next) alike on both connectors', async () => {
    for (const { tools } of [await local.client.listTools(), await hosted.listTools()]) {
      const tool = tools.find((x) => x.name === 'list_rank_keywords')!;
      expect(tool.description).toMatch(/meta\.total/);
      expect(tool.description).toMatch(/meta\.next is null on the last page/);
      expect(tool.inputSchema.properties!.offset).toMatchObject({
        minimum: 0,
        maximum: 2_147_483_647,
      });
    }
    const pageOn = async (on: 'local' | 'hosted', offset: number) => {
      const args = { limit: 200, offset, fields: ['keyword'] };
      return on === 'local'
        ? local.call('list_rank_keywords', args)
        : hostedCall(hosted, 'list_rank_keywords', args);
    };
    const whole = (
      toolOk(await local.call('list_rank_keywords', { limit: 500, fields: ['keyword'] })).data
        .keywords as Array<{ keyword: string }>
    ).map((k) => k.keyword);
    for (const on of ['local', 'hosted'] as const) {
      const seen: string[] = [];
      const metas: unknown[] = [];
      let offset: number | null = 0;
      while (offset !== null) {
        const body = toolOk(await pageOn(on, offset));
        const meta = body.meta as { offset: number; limit: number; next: string | null };
        seen.push(...(body.data.keywords as Array<{ keyword: string }>).map((k) => k.keyword));
        metas.push({ ...meta, timestamp: undefined, request_id: undefined });
        offset = meta.next === null ? null : meta.offset + meta.limit;
      }
      // every keyword once, in the order of one 500-keyword page (project, then keyword id)
      expect(seen).toEqual(whole);
      expect([...seen].sort()).toEqual(
        Array.from(
          { length: 500 },
          (_, i) => `running shoes model ${String(i + 1).padStart(3, '0')}`,
        ),
      );
      expect(metas).toEqual(
        [0, 200, 400].map((o) =>
          expect.objectContaining({
            limit: 200,
            offset: o,
            total: 500,
            next: o < 400 ? `/api/v1/rank/keywords?limit=200&offset=${o + 200}` : null,
          }),
        ),
      );
      const past = toolOk(await pageOn(on, 500));
      expect(past.data).toEqual({ keywords: [], count: 0 });
      expect(past.meta).toMatchObject({ offset: 500, total: 500, next: null });
      for (const offset of [-1, 1.5, '200', 2_147_483_648]) {
        const args = { offset } as Record<string, unknown>;
        const res =
          on === 'local'
            ? await local.call('list_rank_keywords', args)
            : await hostedCall(hosted, 'list_rank_keywords', args);
        expect(toolError(res)).toMatchObject({ code: 'VALIDATION_ERROR' });
      }
    }
    // the same answers, byte for byte but for the request's id and time
    expect(sameness(texts(await pageOn('local', 400)))).toBe(
      sameness(texts(await pageOn('hosted', 400))),
    );
    expect(sameness(JSON.stringify((await pageOn('local', 200)).structuredContent))).toBe(
      sameness(JSON.stringify((await pageOn('hosted', 200)).structuredContent)),
    );
  });

  it('get_usage at the monthly cap: RATE_LIMITED with resets_at and the allowance on both connectors; your-data still served', async () => {
    const capped = await admin.account('pro', {
      api_calls_per_month: 2,
      requests_per_minute: 100_000,
    });
    const c = await localClient(capped.key);
    const h = await hostedClient(capped.key);
    toolOk(await c.call('get_usage'));
    toolOk(await hostedCall(h, 'get_usage'));
    for (const res of [await c.call('get_usage'), await hostedCall(h, 'get_usage')]) {
      const e = toolError(res);
      expect(e).toMatchObject({
        code: 'RATE_LIMITED',
        http_status: 429,
        meta: expect.objectContaining({ resets_at: '2026-12-01', limit: 2 }),
      });
      expect(allText(res)).toContain('allowance of 2 calls is used up until 2026-12-01');
    }
    expect(toolOk(await c.call('list_rank_keywords')).data).toMatchObject({ count: 0 });
    expect(toolOk(await hostedCall(h, 'list_ai_visibility_projects')).data).toMatchObject({
      count: 0,
    });
  });
});
