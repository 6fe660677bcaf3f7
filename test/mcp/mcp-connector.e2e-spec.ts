import { AdminClient, TestAccount, bearer } from '../helpers/fixtures';
import { createTestApp, TestApp } from '../helpers/test-app';
import { YourDataAdmin, scanBody } from '../your-data/your-data-fixtures';
import {
  Connector,
  TOOL_NAMES,
  buildConnector,
  connect,
  allText,
  runBare,
  toolOk,
  usedCalls as countCalls,
} from './mcp-harness';

/**
 * The local MCP connector (spec: Authentication 7): a stdio MCP server that reads the same data
 * with the same plan limits as the REST API, because every tool is one REST call with the key.
 */
const ROOMY = { api_calls_per_month: 'unlimited', requests_per_minute: 100_000 };
type Schema = { properties: Record<string, Record<string, unknown>>; required?: string[] };

describe('MCP connector over stdio: start-up, tools, same data as REST (spec: Authentication 7)', () => {
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
  const rest = (acc: TestAccount, path: string) => t.http().get(path).set(bearer(acc.key));

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

  describe('start-up configuration', () => {
    it('a missing SEO_API_KEY stops the process with a non-zero exit and a clear message on stderr only', () => {
      const res = runBare({ SEO_API_BASE_URL: t.url });
      expect(res.status).not.toBe(0);
      expect(res.stderr).toContain('SEO_API_KEY is not set');
      expect(res.stdout).toBe('');
    });

    it('an invalid SEO_API_BASE_URL is refused at start-up, naming the variable and never printing the key', () => {
      for (const bad of [
        'not a url',
        'ftp://example.com',
        'http://user:pw@example.com',
        'http://example.com/?x=1',
      ]) {
        const res = runBare({ SEO_API_KEY: 'sk_secret_value_123', SEO_API_BASE_URL: bad });
        expect(res.status).not.toBe(0);
        expect(res.stderr).toContain('SEO_API_BASE_URL');
        expect(res.stderr).not.toContain('sk_secret_value_123');
        expect(res.stdout).toBe('');
      }
    });

    it('stdout is the protocol channel: a started server prints nothing there, diagnostics go to stderr without the key', () => {
      const res = runBare({ SEO_API_KEY: 'sk_secret_value_456', SEO_API_BASE_URL: t.url });
      expect(res.status).toBe(0); // stdin closed → clean shutdown
      expect(res.stdout).toBe('');
      expect(res.stderr).toContain('ready on stdio');
      expect(res.stderr).not.toContain('sk_secret_value_456');
    });
  });

  describe('tool list', () => {
    let tools: Array<{ name: string; description?: string; inputSchema: Schema }>;

    beforeAll(async () => {
      const c = await connectAs('any-key');
      tools = (await c.client.listTools()).tools as typeof tools;
    });
    const tool = (name: string) => tools.find((x) => x.name === name)!;

    it('one tool per REST endpoint plus run_site_audit, snake_case', () => {
      expect(tools.map((x) => x.name).sort()).toEqual(TOOL_NAMES);
    });

    it('input schemas mirror the spec parameters and ranges', () => {
      const backlinks = tool('get_backlinks').inputSchema;
      expect(backlinks.required).toEqual(['domain']);
      expect(backlinks.properties.limit).toMatchObject({
        type: 'integer',
        minimum: 1,
        maximum: 200,
      });
      const kw = tool('keyword_research').inputSchema;
      expect(kw.required).toEqual(['keyword']);
      expect(kw.properties.keyword).toMatchObject({ maxLength: 200 });
      expect(kw.properties.limit).toMatchObject({ minimum: 1, maximum: 100 });
      expect(tool('get_rank_history').inputSchema.properties.days).toMatchObject({
        minimum: 1,
        maximum: 365,
      });
      expect(tool('get_rank_history').inputSchema.required).toEqual(['keyword_id']);
      expect(tool('list_rank_keywords').inputSchema.properties.limit).toMatchObject({
        minimum: 1,
        maximum: 500,
      });
      const gsc = tool('query_gsc').inputSchema;
      expect(gsc.required).toEqual(['property_id']);
      expect(gsc.properties.limit).toMatchObject({ minimum: 1, maximum: 500 });
      expect(JSON.stringify(gsc.properties.dim)).toContain('searchAppearance');
      expect(String(gsc.properties.dim.description)).toContain('falls back to query');
      expect(gsc.properties.from).toMatchObject({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });
      expect(gsc.properties.dir).toMatchObject({ enum: ['desc', 'asc'] });
      expect(tool('start_site_audit').inputSchema.properties.depth).toMatchObject({
        minimum: 1,
        maximum: 5,
      });
      expect(tool('start_site_audit').inputSchema.required).toEqual(['url']);
      expect(tool('get_share_of_voice').inputSchema.required).toEqual(['project_id']);
    });

    it('descriptions state the cost group of each tool', () => {
      for (const name of [
        'get_backlinks',
        'keyword_research',
        'start_site_audit',
        'run_site_audit',
      ]) {
        expect(tool(name).description).toContain('Cost: research call');
      }
      for (const name of [
        'list_rank_keywords',
        'get_rank_history',
        'list_gsc_properties',
        'query_gsc',
        'list_ai_visibility_projects',
        'get_share_of_voice',
        'list_rank_projects',
        'create_rank_project',
        'update_rank_project',
        'delete_rank_project',
        'add_rank_keywords',
        'update_rank_keyword',
        'delete_rank_keyword',
      ]) {
        expect(tool(name).description).toContain('never refused at the monthly call cap');
      }
      for (const x of tools) expect(x.description).toMatch(/one API call/);
    });
  });

  describe('same data as the REST API', () => {
    let acc: TestAccount;
    let c: Connector;
    let keywordId: number;
    let propertyId: number;
    let projectId: number;

    beforeAll(async () => {
      acc = await admin.account('agency', ROOMY, 'claude desktop');
      c = await connectAs(acc.key);
      const rankProject = await yd.rankProject(acc.id, 'example.com', 'Example');
      keywordId = await yd.keyword(rankProject, 'running shoes', { search_volume: 1000 });
      await yd.checks(keywordId, [
        { check_date: '2026-11-18', position: 7 },
        { check_date: '2026-11-19', position: 4, landing_page: 'https://example.com/shoes' },
      ]);
      propertyId = await yd.gscProperty(acc.id);
      await yd.gscRows(propertyId, [
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
        {
          date: '2026-11-11',
          query: 'boots',
          page: 'https://example.com/b',
          country: 'gbr',
          device: 'MOBILE',
          clicks: 2,
          impressions: 40,
          position: 6,
        },
      ]);
      projectId = await yd.aiProject(acc.id);
      await yd.scan(
        projectId,
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
    });

    it('get_usage: the usage record and meta.key_name, as structuredContent and in the text summary', async () => {
      const res = await c.call('get_usage');
      const body = ok(res);
      expect(body.data).toMatchObject({ plan: 'agency', unlimited: true, resets_at: '2026-12-01' });
      expect(body.meta.key_name).toBe('claude desktop');
      // A short text summary of structuredContent: a small record is whole in it (issue 36, item 6).
      const text = allText(res);
      expect(text).toContain('structuredContent');
      for (const [name, value] of Object.entries(body.data)) {
        expect(text).toContain(`data.${name}: ${JSON.stringify(value)}`);
      }
      expect(text).toContain('"key_name":"claude desktop"');
    });

    it('every tool call is one metered API call, like a REST call', async () => {
      const before = await usedCalls(acc);
      await c.call('get_usage');
      await c.call('list_gsc_properties');
      expect(await usedCalls(acc)).toBe(before + 2);
    });

    it('your-data tools return exactly the REST data', async () => {
      const pairs: Array<[string, Record<string, unknown>, string]> = [
        ['list_rank_keywords', { limit: 10 }, '/api/v1/rank/keywords?limit=10'],
        [
          'get_rank_history',
          { keyword_id: keywordId, days: 30 },
          `/api/v1/rank/history?keyword_id=${keywordId}&days=30`,
        ],
        ['list_gsc_properties', {}, '/api/v1/gsc/properties'],
        [
          'query_gsc',
          {
            property_id: propertyId,
            dim: 'country',
            from: '2026-11-01',
            to: '2026-11-20',
            sort: 'impressions',
            dir: 'asc',
            limit: 5,
          },
          `/api/v1/gsc/queries?property_id=${propertyId}&dim=country&from=2026-11-01&to=2026-11-20&sort=impressions&dir=asc&limit=5`,
        ],
        ['list_ai_visibility_projects', {}, '/api/v1/ai-visibility/projects'],
        [
          'get_share_of_voice',
          { project_id: projectId },
          `/api/v1/ai-visibility/share-of-voice?project_id=${projectId}`,
        ],
      ];
      for (const [name, args, path] of pairs) {
        const viaMcp = ok(await c.call(name, args));
        const viaRest = await rest(acc, path);
        expect(viaRest.status).toBe(200);
        expect({ name, data: viaMcp.data }).toEqual({ name, data: viaRest.body.data });
      }
      const history = ok(await c.call('get_rank_history', { keyword_id: keywordId }));
      expect(history.meta).toMatchObject({ days_requested: 90, points: 2 });
      expect((history.data.trend as Record<string, unknown>).best).toBe(4);
    });

    it('query_gsc keeps the REST fallback: an unrecognized dim or sort is applied as query / clicks', async () => {
      const res = ok(
        await c.call('query_gsc', {
          property_id: propertyId,
          dim: 'bogus',
          sort: 'nope',
          from: '2026-11-01',
          to: '2026-11-20',
        }),
      );
      expect(res.data.dim).toBe('query');
      expect(res.meta.sort).toBe('clicks');
    });

    it('research tools run against the provider with the REST billing: backlinks cached on repeat, keyword research, locations', async () => {
      const first = ok(
        await c.call('get_backlinks', { domain: 'https://www.example.org/page', limit: 5 }),
      );
      expect(first.data).toMatchObject({ domain: 'example.org', page: 1, limit: 5 });
      expect((first.data.backlinks as unknown[]).length).toBeLessThanOrEqual(5);
      expect(first.meta.cached).toBe(false);
      const again = ok(await c.call('get_backlinks', { domain: 'example.org', limit: 5 }));
      expect(again.meta.cached).toBe(true);

      const kw = ok(
        await c.call('keyword_research', {
          keyword: 'trail running shoes',
          location_code: 2826,
          limit: 3,
        }),
      );
      expect(kw.data).toMatchObject({ keyword: 'trail running shoes', location_code: 2826 });
      expect((kw.data.related_keywords as unknown[]).length).toBeLessThanOrEqual(3);

      const locations = ok(await c.call('list_locations'));
      expect(locations.data.count as number).toBeGreaterThan(90);
      expect(locations.data.locations).toEqual(
        expect.arrayContaining([expect.objectContaining({ location_code: 2840 })]),
      );
    });
  });
});
