import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { AdminClient, bearer } from '../helpers/fixtures';
import { aiProjectBody } from '../helpers/openapi-answers';
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
  'create_ai_visibility_project',
  'update_ai_visibility_project',
  'delete_ai_visibility_project',
];

type Call = (name: string, args?: Record<string, unknown>) => Promise<ToolResult>;

/**
 * AI-visibility management through MCP (issue 40): the four tools on both connectors against
 * the real routes, their annotations; over OAuth, seo:read reads the settings and every write
 * is FORBIDDEN, seo:write writes; an API key writes.
 */
describe('AI-visibility MCP tools: both connectors, annotations, the seo:write scope', () => {
  let app: OAuthTestApp;
  let admin: AdminClient;
  let person: Person;
  const clients: Client[] = [];
  const locals: Connector[] = [];

  beforeAll(async () => {
    buildConnector();
    app = await startOAuthApp();
    admin = new AdminClient(app.base);
    person = await createPerson(app.base, 'agency');
  }, 120_000);
  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    for (const c of locals) await c.close().catch(() => undefined);
    await app?.close();
  });

  async function hostedClient(token: string): Promise<Client> {
    const client = new Client({ name: 'ai-visibility-e2e', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${app.base}/mcp`), {
        requestInit: { headers: bearer(token) },
      }),
    );
    clients.push(client);
    return client;
  }

  async function hosted(token: string): Promise<Call> {
    const client = await hostedClient(token);
    await client.listTools(); // the SDK client checks each structuredContent against outputSchema
    return async (name, args = {}) =>
      (await client.callTool({ name, arguments: args })) as ToolResult;
  }

  async function local(key: string): Promise<Call> {
    const c = await connectLocal({ SEO_API_KEY: key, SEO_API_BASE_URL: app.base });
    locals.push(c);
    return c.call;
  }

  /** Create, read, change, delete through one connector. */
  async function journey(call: Call, domain: string): Promise<void> {
    const created = toolOk(
      await call('create_ai_visibility_project', {
        ...aiProjectBody(`https://www.${domain}/`),
        competitors: [{ name: 'Rival', domain: 'rival.example' }],
      }),
    );
    expect(created.data).toMatchObject({
      domain,
      ai_engine: 'chatgpt',
      prompts: aiProjectBody(domain).prompts,
      competitors: [{ name: 'Rival', domain: 'rival.example' }],
    });
    const id = created.data.id as number;
    const settings = toolOk(await call('get_ai_visibility_settings', { project_id: id }));
    expect(settings.data).toMatchObject({ project_id: id, tracking_frequency: 'weekly' });
    expect(settings.data.next_scan_at).toEqual(expect.any(String));
    const changed = toolOk(
      await call('update_ai_visibility_project', {
        project_id: id,
        tracking_frequency: 'daily',
        prompts: ['a single question'],
      }),
    );
    expect(changed.data).toMatchObject({
      tracking_frequency: 'daily',
      prompts: ['a single question'],
    });
    expect(toolOk(await call('delete_ai_visibility_project', { project_id: id })).data).toEqual({
      project_id: id,
      deleted: true,
    });
    expect(toolError(await call('get_ai_visibility_settings', { project_id: id })).code).toBe(
      'NOT_FOUND',
    );
  }

  it('the tools are listed with their annotations (destructive delete, idempotent writes)', async () => {
    const client = await hostedClient(person.account.key);
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect(byName.get('get_ai_visibility_settings')?.annotations).toMatchObject({
      readOnlyHint: true,
    });
    for (const name of WRITE_TOOLS)
      expect(byName.get(name)?.annotations).toMatchObject({ readOnlyHint: false });
    expect(byName.get('create_ai_visibility_project')?.annotations).toMatchObject({
      destructiveHint: false,
      idempotentHint: true,
    });
    expect(byName.get('delete_ai_visibility_project')?.annotations).toMatchObject({
      destructiveHint: true,
    });
    for (const name of [...WRITE_TOOLS, 'get_ai_visibility_settings'])
      expect(byName.get(name)?.outputSchema).toBeDefined();
  });

  it('OAuth with seo:read only: reads the settings; every write is FORBIDDEN and nothing is counted', async () => {
    const { access, tokens } = await connectApp(app.base, person, undefined, 'seo:read');
    expect(tokens.scope).toBe('seo:read');
    const call = await hosted(access);
    const made = toolOk(
      await (
        await local(person.account.key)
      )('create_ai_visibility_project', aiProjectBody('read.example')),
    );
    const id = made.data.id as number;
    expect(toolOk(await call('get_ai_visibility_settings', { project_id: id })).data).toMatchObject(
      {
        project_id: id,
      },
    );
    const before = await usedCalls(admin, person.account);
    const args: Record<string, Record<string, unknown>> = {
      create_ai_visibility_project: aiProjectBody('write.example'),
      update_ai_visibility_project: { project_id: id, tracking_frequency: 'daily' },
      delete_ai_visibility_project: { project_id: id },
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
    expect(
      (await app.t.db.query(`SELECT 1 FROM ai_visibility_projects WHERE domain = 'write.example'`))
        .length,
    ).toBe(0);
    expect(
      toolOk(await call('get_ai_visibility_settings', { project_id: id })).data.tracking_frequency,
    ).toBe('weekly');
  });

  it('OAuth with seo:write, and an API key hosted and local: the writes work', async () => {
    const { access } = await connectApp(app.base, person, undefined, 'seo:read seo:write');
    await journey(await hosted(access), 'oauth.example');
    const acc = await admin.account('agency');
    await journey(await hosted(acc.key), 'hosted-key.example');
    await journey(await local(acc.key), 'local-key.example');
  });

  it('past the plan: PAYMENT_REQUIRED with limit, used and requested; bad input: VALIDATION_ERROR', async () => {
    const acc = await admin.account('pro');
    const call = await hosted(acc.key);
    toolOk(await call('create_ai_visibility_project', aiProjectBody('one.example')));
    const error = toolError(
      await call('create_ai_visibility_project', aiProjectBody('two.example')),
    );
    expect(error).toMatchObject({
      code: 'PAYMENT_REQUIRED',
      http_status: 402,
      meta: expect.objectContaining({ limit: 1, used: 1, requested: 1 }),
    });
    const invalid = await call('create_ai_visibility_project', {
      ...aiProjectBody('three.example'),
      prompts: ['same question', 'same question'],
    });
    expect(toolError(invalid).code).toBe('VALIDATION_ERROR');
  });
});
