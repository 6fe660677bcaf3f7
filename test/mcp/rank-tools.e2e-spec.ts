import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { AdminClient, bearer } from '../helpers/fixtures';
import {
  OAuthTestApp,
  Person,
  connect as connectApp,
  createPerson,
  startOAuthApp,
} from '../oauth/oauth-helpers';
import {
  Connector,
  ToolResult,
  buildConnector,
  connect as connectLocal,
  toolError,
  toolOk,
  usedCalls,
} from './mcp-harness';

const WRITE_TOOLS = [
  'create_rank_project',
  'update_rank_project',
  'delete_rank_project',
  'add_rank_keywords',
  'update_rank_keyword',
  'delete_rank_keyword',
];

type Call = (name: string, args?: Record<string, unknown>) => Promise<ToolResult>;

/**
 * Rank tracking through MCP (issue 38): the seven tools on both connectors against the real
 * routes; over OAuth, seo:read lists and reads and every write is FORBIDDEN, seo:write writes;
 * an API key (hosted or local) writes as before.
 */
describe('rank tracking MCP tools: both connectors, the seo:write scope', () => {
  let app: OAuthTestApp;
  let admin: AdminClient;
  let person: Person;
  const clients: Client[] = [];
  const locals: Connector[] = [];

  beforeAll(async () => {
    buildConnector();
    app = await startOAuthApp();
    admin = new AdminClient(app.base);
    person = await createPerson(app.base, 'pro');
  }, 120_000);
  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    for (const c of locals) await c.close().catch(() => undefined);
    await app?.close();
  });

  async function hosted(token: string): Promise<Call> {
    const client = new Client({ name: 'rank-e2e', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${app.base}/mcp`), {
        requestInit: { headers: bearer(token) },
      }),
    );
    clients.push(client);
    await client.listTools(); // the SDK client checks each structuredContent against outputSchema
    return async (name, args = {}) =>
      (await client.callTool({ name, arguments: args })) as ToolResult;
  }

  async function local(key: string): Promise<Call> {
    const c = await connectLocal({ SEO_API_KEY: key, SEO_API_BASE_URL: app.base });
    locals.push(c);
    return c.call;
  }

  /** The whole management journey through one connector; the project's id. */
  async function journey(call: Call, domain: string): Promise<void> {
    const created = toolOk(await call('create_rank_project', { domain: `https://www.${domain}/` }));
    expect(created.data).toMatchObject({
      domain,
      name: domain,
      match: 'domain',
      tracking: true,
      keywords_count: 0,
    });
    const projectId = created.data.project_id as number;
    // Idempotent: the same project again.
    expect(toolOk(await call('create_rank_project', { domain })).data).toMatchObject({
      project_id: projectId,
    });

    const batch = {
      project_id: projectId,
      keywords: ['running shoes', { keyword: 'trail shoes', device: 'mobile' }],
      country: 'GB',
    };
    const added = toolOk(await call('add_rank_keywords', batch)).data as {
      added: Array<{ keyword_id: number; keyword: string; country: string; device: string }>;
      already_tracked: unknown[];
      tracked_keywords: { used: number; limit: number };
    };
    expect(added.added.map((k) => [k.keyword, k.country, k.device])).toEqual([
      ['running shoes', 'GB', 'desktop'],
      ['trail shoes', 'GB', 'mobile'],
    ]);
    expect(added.already_tracked).toEqual([]);
    const again = toolOk(await call('add_rank_keywords', batch)).data as typeof added;
    expect(again.added).toEqual([]);
    expect(again.already_tracked).toHaveLength(2);
    expect(again.tracked_keywords).toEqual(added.tracked_keywords);

    const listed = toolOk(await call('list_rank_projects')).data as {
      projects: Array<{ project_id: number; keywords_count: number }>;
    };
    expect(listed.projects.find((p) => p.project_id === projectId)?.keywords_count).toBe(2);
    const keywords = toolOk(await call('list_rank_keywords', { project_id: projectId })).data;
    expect(keywords.count).toBe(2);

    const first = added.added[0].keyword_id;
    expect(
      toolOk(await call('update_rank_keyword', { keyword_id: first, status: 'paused' })).data,
    ).toMatchObject({ keyword_id: first, status: 'paused' });
    expect(
      toolOk(await call('update_rank_project', { project_id: projectId, tracking: false })).data,
    ).toMatchObject({ project_id: projectId, tracking: false });
    expect(toolOk(await call('delete_rank_keyword', { keyword_id: first })).data).toEqual({
      keyword_id: first,
      deleted: true,
    });
    expect(toolOk(await call('delete_rank_project', { project_id: projectId })).data).toEqual({
      project_id: projectId,
      deleted: true,
      keywords_deleted: 1,
    });
    // Gone: NOT_FOUND, as for another account's.
    expect(toolError(await call('delete_rank_project', { project_id: projectId })).code).toBe(
      'NOT_FOUND',
    );
  }

  it('OAuth with seo:read only: lists and reads; every write is FORBIDDEN and nothing is counted', async () => {
    const { access, tokens } = await connectApp(app.base, person, undefined, 'seo:read');
    expect(tokens.scope).toBe('seo:read');
    const call = await hosted(access);
    // Something to read: a project made with the account's API key.
    const key = person.account.key;
    const made = toolOk(
      await (
        await local(key)
      )('create_rank_project', { domain: 'read.example' }),
    );
    const projectId = made.data.project_id as number;

    const projects = toolOk(await call('list_rank_projects')).data as {
      projects: Array<{ project_id: number }>;
    };
    expect(projects.projects.map((p) => p.project_id)).toContain(projectId);
    expect(toolOk(await call('list_rank_keywords', { project_id: projectId })).data.count).toBe(0);

    const before = await usedCalls(admin, person.account);
    const args: Record<string, Record<string, unknown>> = {
      create_rank_project: { domain: 'write.example' },
      update_rank_project: { project_id: projectId, tracking: false },
      delete_rank_project: { project_id: projectId },
      add_rank_keywords: { project_id: projectId, keywords: ['x'] },
      update_rank_keyword: { keyword_id: 1, status: 'paused' },
      delete_rank_keyword: { keyword_id: 1 },
    };
    for (const name of WRITE_TOOLS) {
      const error = toolError(await call(name, args[name]));
      expect({ name, code: error.code, status: error.http_status, meta: error.meta }).toEqual({
        name,
        code: 'FORBIDDEN',
        status: null,
        meta: { required_scope: 'seo:write', granted_scopes: ['seo:read'] },
      });
    }
    expect(await usedCalls(admin, person.account)).toBe(before);
    const still = toolOk(await call('list_rank_projects')).data as typeof projects;
    expect(still.projects.find((p) => p.project_id === projectId)).toMatchObject({
      tracking: true,
    });
    expect(
      (await app.t.db.query(`SELECT 1 FROM rank_projects WHERE domain = 'write.example'`)).length,
    ).toBe(0);
  });

  it('OAuth with seo:write (asked, or every scope when none is named): the writes work', async () => {
    for (const scope of ['seo:read seo:write', undefined]) {
      const { access, tokens } = await connectApp(app.base, person, undefined, scope);
      expect(tokens.scope).toBe('seo:read seo:write');
      await journey(await hosted(access), `oauth-${scope ? 'asked' : 'all'}.example`);
    }
  });

  it('an API key, hosted and local: the writes work as before, and a write is counted', async () => {
    const acc = await admin.account('pro');
    const before = await usedCalls(admin, acc);
    await journey(await hosted(acc.key), 'hosted-key.example');
    await journey(await local(acc.key), 'local-key.example');
    // 11 tool calls per journey, each one API call (the NOT_FOUND too).
    expect((await usedCalls(admin, acc)) - before).toBe(22);
  });

  it('past tracked_keywords: PAYMENT_REQUIRED with limit, used and requested, nothing added', async () => {
    const acc = await admin.account('pro', { tracked_keywords: 2 });
    const call = await hosted(acc.key);
    const project = toolOk(await call('create_rank_project', { domain: 'limit.example' })).data;
    const res = await call('add_rank_keywords', {
      project_id: project.project_id,
      keywords: ['a', 'b', 'c'],
    });
    const error = toolError(res);
    expect(error).toMatchObject({
      code: 'PAYMENT_REQUIRED',
      http_status: 402,
      meta: expect.objectContaining({ limit: 2, used: 0, requested: 3 }),
    });
    const text = (res.content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');
    expect(text).toContain('limit=2, used=0, requested=3');
    expect(text).toContain('Nothing was added');
    expect(toolOk(await call('list_rank_projects')).data).toMatchObject({
      projects: [expect.objectContaining({ keywords_count: 0 })],
    });
  });
});
