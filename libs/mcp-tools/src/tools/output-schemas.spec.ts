import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import { PLANS } from '@app/plans';
import openapi from '../../../../clients/typescript/openapi.json';
import type { ApiResult, RequestOptions, ToolBackend } from '../backend';
import { createToolServer } from '../server';
import { SUMMARY_MAX_CHARS } from '../tool-result';
import { outputSchemas, toJsonSchema } from './output-schemas';

const META = { timestamp: '2026-11-20T12:00:00.000+00:00', request_id: 'req_test' };

const usage = {
  plan: 'pro',
  api_calls_used: 3,
  api_calls_limit: 20,
  unlimited: false,
  resets_at: '2026-12-01',
};

const keyword = (i: number) => ({
  keyword_id: i,
  keyword: `running shoes ${i}`,
  difficulty: 40,
  search_volume: 1200,
  cpc: 1.25,
  country: 'US',
  language: 'en',
  device: 'desktop',
  status: 'active',
  project_id: 1,
  project_domain: 'example.com',
  project_name: 'Example',
  last_checked: '2026-11-19',
  current_position: 4,
  previous_position: 6,
  position_change: 2,
  landing_page: 'https://example.com/shoes',
  gsc_clicks: 10,
  gsc_impressions: 400,
  gsc_ctr: 2.5,
  local_pack: false,
  featured_snippet: null,
  ai_overview: true,
});

/** A backend answering each path with a canned REST answer, counting the calls. */
class FakeBackend implements ToolBackend {
  calls: Array<{ path: string; options?: RequestOptions }> = [];
  answers = new Map<string, ApiResult>();

  request(_method: 'GET' | 'POST', path: string, options?: RequestOptions): Promise<ApiResult> {
    this.calls.push({ path, options });
    return Promise.resolve(
      this.answers.get(path) ?? {
        ok: false,
        status: 404,
        code: 'NOT_FOUND',
        message: 'no canned answer',
        meta: META,
      },
    );
  }
}

describe('tool output schemas, bounds, descriptions and summaries (issue 36, item 6)', () => {
  let backend: FakeBackend;
  let client: Client;
  let tools: Tool[];

  beforeEach(async () => {
    backend = new FakeBackend();
    const server = createToolServer(backend, { pollIntervalMs: 100, maxWaitMs: 0 });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(b);
    client = new Client({ name: 'unit', version: '1.0.0' });
    await client.connect(a);
    tools = (await client.listTools()).tools; // the SDK client keeps each outputSchema's validator
  });
  afterEach(() => client.close());

  const call = async (name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = (res: CallToolResult) =>
    res.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

  it('every tool declares an outputSchema: an object with data and meta that a JSON Schema validator compiles', () => {
    const declared = outputSchemas();
    expect(tools.map((t) => t.name).sort()).toEqual(Object.keys(declared).sort());
    const ajv = new AjvJsonSchemaValidator();
    for (const tool of tools) {
      const schema = tool.outputSchema as Record<string, unknown>;
      expect(schema).toMatchObject({
        type: 'object',
        properties: {
          data: expect.any(Object),
          meta: expect.any(Object),
          error: expect.any(Object),
        },
        anyOf: [{ required: expect.arrayContaining(['data', 'meta']) }, { required: ['error'] }],
      });
      expect(schema).toEqual(declared[tool.name]);
      expect(() => ajv.getValidator(schema)).not.toThrow();
      const json = JSON.stringify(schema);
      // no OpenAPI-only keywords and no reference left
      expect(json).not.toMatch(/"nullable"|"example"|"\$ref"|#\/components/);
    }
  });

  it('the output schemas are the REST document: list_rank_keywords data is RankKeywords, meta RankKeywordsAnswer.meta', () => {
    const schema = outputSchemas().get_usage as {
      properties: { data: Record<string, unknown>; meta: Record<string, unknown> };
    };
    expect(schema.properties.data).toEqual(toJsonSchema(openapi.components.schemas.UsageRecord));
    expect(schema.properties.meta).toEqual(
      toJsonSchema(openapi.components.schemas.UsageAnswer.properties.meta),
    );
    // nullable members accept null
    const rank = outputSchemas().list_rank_keywords as {
      properties: { data: { properties: { keywords: { items: Record<string, unknown> } } } };
    };
    const row = rank.properties.data.properties.keywords.items as {
      properties: Record<string, { type: unknown }>;
      required?: string[];
    };
    expect(row.properties.current_position.type).toEqual(['integer', 'null']);
    expect(row.required).toBeUndefined(); // `fields` may leave members out
  });

  it('bounds are real numbers: no ±2^53 and nothing past PostgreSQL integers in any input or output schema', () => {
    const bounds: number[] = [];
    const walk = (node: unknown) => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object') {
        for (const [key, value] of Object.entries(node)) {
          if (/^(minimum|maximum|exclusiveMinimum|exclusiveMaximum)$/.test(key)) {
            bounds.push(value as number);
          }
          walk(value);
        }
      }
    };
    for (const tool of tools) walk([tool.inputSchema, tool.outputSchema]);
    expect(bounds.length).toBeGreaterThan(20);
    for (const bound of bounds) {
      expect(Number.isInteger(bound)).toBe(true);
      expect(Math.abs(bound)).toBeLessThanOrEqual(2_147_483_647);
    }
    const schemaOf = (name: string) =>
      tools.find((t) => t.name === name)!.inputSchema.properties as Record<
        string,
        Record<string, unknown>
      >;
    const largestCrawl = Math.max(
      ...Object.values(PLANS).map((p) => p.limits.site_audit_pages_per_crawl),
    );
    for (const name of ['start_site_audit', 'run_site_audit']) {
      expect(schemaOf(name).max_pages).toMatchObject({ minimum: 1, maximum: largestCrawl });
    }
    expect(schemaOf('keyword_research').location_code).toMatchObject({
      minimum: 2001,
      maximum: 2999,
    });
    expect(schemaOf('list_rank_keywords').limit).toMatchObject({ minimum: 1, maximum: 500 });
    expect(schemaOf('list_rank_keywords').offset).toMatchObject({
      type: 'integer',
      minimum: 0,
      maximum: 2_147_483_647,
    });
  });

  it('out-of-range, wrong-typed and hostile arguments are refused before any API call', async () => {
    const refused: Array<[string, Record<string, unknown>, string]> = [
      ['start_site_audit', { url: 'https://example.com/', max_pages: 2001 }, 'max_pages'],
      ['start_site_audit', { url: 'https://example.com/', max_pages: 2_147_483_647 }, 'max_pages'],
      ['start_site_audit', { url: 'https://example.com/', max_pages: '100' }, 'max_pages'],
      ['start_site_audit', { url: 'https://example.com/', max_pages: 1.5 }, 'max_pages'],
      ['keyword_research', { keyword: 'shoes', location_code: 1 }, 'location_code'],
      [
        'keyword_research',
        { keyword: 'shoes', location_code: 9_007_199_254_740_991 },
        'location_code',
      ],
      ['keyword_research', { keyword: 'shoes', location_code: '2840' }, 'location_code'],
      ['list_rank_keywords', { limit: 501 }, 'limit'],
      ['list_rank_keywords', { limit: 0 }, 'limit'],
      ['list_rank_keywords', { limit: '500; DROP TABLE x' }, 'limit'],
      ['list_rank_keywords', { offset: -1 }, 'offset'],
      ['list_rank_keywords', { offset: 1.5 }, 'offset'],
      ['list_rank_keywords', { offset: '100' }, 'offset'],
      ['list_rank_keywords', { offset: 2_147_483_648 }, 'offset'],
      ['list_rank_keywords', { offset: null }, 'offset'],
    ];
    for (const [name, args, field] of refused) {
      const res = await call(name, args);
      expect(res.isError).toBe(true);
      expect(res.structuredContent).toMatchObject({
        error: { code: 'VALIDATION_ERROR', details: [expect.objectContaining({ field })] },
      });
    }
    expect(backend.calls).toEqual([]);
    backend.answers.set('/site-audit', {
      ok: false,
      status: 429,
      code: 'QUOTA_EXCEEDED',
      message: 'used up',
      meta: META,
    });
    await call('start_site_audit', { url: 'https://example.com/', max_pages: 2000 });
    await call('keyword_research', { keyword: 'shoes', location_code: 2999 });
    expect(backend.calls.map((c) => c.path)).toEqual(['/site-audit', '/keyword-research']);
  });

  it('the SDK client validates structuredContent against the outputSchema: a right answer passes, a wrong-typed one is refused', async () => {
    backend.answers.set('/usage', {
      ok: true,
      status: 200,
      data: usage,
      meta: { ...META, key_name: 'ci', period_start: '2026-11-01' },
    });
    const ok = await call('get_usage');
    expect(ok.structuredContent).toMatchObject({ data: usage });
    backend.answers.set('/usage', {
      ok: true,
      status: 200,
      data: { ...usage, api_calls_used: '3' },
      meta: { ...META, key_name: 'ci', period_start: '2026-11-01' },
    });
    await expect(call('get_usage')).rejects.toThrow(/does not match the tool's output schema/);
  });

  it('a 500-keyword answer: structuredContent whole, the text a short summary with the count and the first rows', async () => {
    const keywords = Array.from({ length: 500 }, (_, i) => keyword(i + 1));
    backend.answers.set('/rank/keywords', {
      ok: true,
      status: 200,
      data: { keywords, count: 500 },
      meta: {
        ...META,
        project_id: null,
        limit: 500,
        offset: 0,
        total: 1200,
        next: '/api/v1/rank/keywords?limit=500&offset=500',
      },
    });
    const res = await call('list_rank_keywords', { limit: 500 });
    const full = JSON.stringify(res.structuredContent);
    expect((res.structuredContent as { data: { keywords: unknown[] } }).data.keywords).toHaveLength(
      500,
    );
    expect(full.length).toBeGreaterThan(200_000);
    const summary = text(res);
    expect(summary.length).toBeLessThanOrEqual(SUMMARY_MAX_CHARS);
    expect(summary.length).toBeLessThan(4_000);
    expect(summary).toContain('structuredContent');
    expect(summary).toContain('data.keywords: 500 rows, the first');
    expect(summary).toContain('data.count: 500');
    expect(summary).toContain('"keyword":"running shoes 1"');
    expect(summary).toContain('"limit":500');

    // with fields, rows lack members and still conform
    const slim = await call('list_rank_keywords', { limit: 500, fields: ['keyword'] });
    expect((slim.structuredContent as { data: { keywords: unknown[] } }).data.keywords[0]).toEqual({
      keyword: 'running shoes 1',
    });
  });

  it('a small answer is whole in the summary (every row, every member)', async () => {
    backend.answers.set('/gsc/properties', {
      ok: true,
      status: 200,
      data: {
        properties: [
          {
            property_id: 7,
            property_uri: 'sc-domain:example.com',
            display_name: 'Example',
            status: 'active',
            last_synced_at: null,
            last_sync_status: null,
            google_email: 'owner@example.com',
            is_sandbox: true,
          },
        ],
        count: 1,
      },
      meta: META,
    });
    const summary = text(await call('list_gsc_properties'));
    expect(summary).toContain('data.properties: 1 row:');
    expect(summary).toContain('"property_uri":"sc-domain:example.com"');
    expect(summary).toContain('data.count: 1');
  });

  it('get_usage at the monthly cap: RATE_LIMITED carries resets_at and the allowance, and says what still works', async () => {
    backend.answers.set('/usage', {
      ok: false,
      status: 429,
      code: 'RATE_LIMITED',
      message: 'Monthly API call limit of 20 reached. It resets on 2026-12-01.',
      meta: { ...META, resets_at: '2026-12-01', limit: 20 },
    });
    const res = await call('get_usage');
    expect(res.structuredContent).toMatchObject({
      error: { code: 'RATE_LIMITED', meta: { resets_at: '2026-12-01', limit: 20 } },
    });
    expect(text(res)).toContain('allowance of 20 calls is used up until 2026-12-01');
    expect(text(res)).toContain('get_usage included');
    const description = tools.find((t) => t.name === 'get_usage')!.description!;
    expect(description).toContain('RATE_LIMITED with meta.resets_at');
    expect(description).not.toMatch(/always|even at the cap/i);
  });

  it('descriptions state units and scales', () => {
    const description = (name: string) => tools.find((t) => t.name === name)!.description!;
    const expected: Record<string, RegExp[]> = {
      keyword_research: [/competition \(paid\) 0-1/, /USD/, /difficulty \(organic\) 0-100/],
      list_rank_keywords: [
        /gsc_ctr\s+in percent/,
        /cpc in the market's currency/,
        /at most `limit` keywords \(default 100, max 500\)/,
        /data\.count is the\s+number of keywords in this answer/,
      ],
      query_gsc: [/ctr in percent/, /position/],
      get_share_of_voice: [/mention_rate, citation_rate and brand_share_pct\s+in percent/, /0-100/],
      list_ai_visibility_projects: [/visibility_score\s+0-100/, /UTC/],
      get_job: [/total_score .* 0-100/, /UTC/],
      run_site_audit: [/geo_score .* 0-100/, /UTC/],
      get_backlinks: [/spam_score, domain_from_rank and page_from_rank 0-100/],
      get_usage: [/UTC/],
      list_gsc_properties: [/UTC/],
    };
    for (const [name, patterns] of Object.entries(expected)) {
      for (const pattern of patterns) expect(description(name)).toMatch(pattern);
    }
  });
});
