import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  Browser,
  InMemoryOAuthProvider,
  OAuthTestApp,
  Person,
  REDIRECT,
  createPerson,
  hiddenInputs,
  signInThroughPage,
  startOAuthApp,
  token,
} from './oauth-helpers';

type ToolResult = {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  content: Array<{ type: string; text?: string }>;
};

/**
 * An OAuth client provider as an MCP client implements it; "the browser" signs in and
 * approves through the real pages over HTTP and hands back the code.
 */
class TestOAuthProvider extends InMemoryOAuthProvider {
  code?: string;
  redirects = 0;
  approve = true;
  readonly browser = new Browser();

  constructor(
    private readonly base: string,
    private readonly person: Person,
  ) {
    super(REDIRECT, 'SDK Test Assistant');
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    this.redirects += 1;
    if (!this.approve) return;
    let res = await this.browser.fetch(url.href);
    if (res.status === 303) {
      const back = await signInThroughPage(
        this.browser,
        this.base,
        res.headers.get('location')!,
        this.person,
      );
      res = await this.browser.fetch(new URL(back, this.base).href);
    }
    if (res.status !== 200) throw new Error(`authorize: ${res.status} ${await res.text()}`);
    const fields = hiddenInputs(await res.text());
    const done = await this.browser.postForm(`${this.base}/oauth/authorize/decision`, {
      ...fields,
      decision: 'approve',
    });
    const location = new URL(done.headers.get('location')!);
    if (location.searchParams.get('iss') !== this.base) throw new Error('no iss');
    this.code = location.searchParams.get('code') ?? undefined;
  }
}

describe('hosted MCP over OAuth with the SDK client (StreamableHTTPClientTransport + OAuthClientProvider)', () => {
  let app: OAuthTestApp;
  let base: string;
  let person: Person;

  beforeAll(async () => {
    app = await startOAuthApp();
    base = app.base;
    person = await createPerson(base, 'pro');
  });
  afterAll(() => app.close());

  it('registers, signs in and approves, exchanges the code, lists and calls tools, refreshes, sees revocation', async () => {
    const provider = new TestOAuthProvider(base, person);
    const mcpUrl = new URL(`${base}/mcp`);

    // 1. No token: 401 → discovery → registration → authorization (sign-in + consent) → code.
    const first = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
    const client = new Client({ name: 'oauth-e2e', version: '1.0.0' });
    await expect(client.connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.info?.client_id).toMatch(/^mcp-/);
    expect(provider.code).toBeTruthy();
    await first.finishAuth(provider.code!);
    expect(provider.saved?.access_token).toBeTruthy();
    expect(provider.saved?.refresh_token).toBeTruthy();

    // 2. Connected: tools listed and called as the account (the connection's name as key name).
    const connected = new Client({ name: 'oauth-e2e', version: '1.0.0' });
    await connected.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
    const tools = await connected.listTools();
    expect(tools.tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['get_usage', 'get_backlinks', 'list_locations']),
    );
    const usage = (await connected.callTool({ name: 'get_usage', arguments: {} })) as ToolResult;
    expect(usage.isError).toBeFalsy();
    expect(JSON.stringify(usage.structuredContent)).toContain('SDK Test Assistant');
    const locations = (await connected.callTool({
      name: 'list_locations',
      arguments: {},
    })) as ToolResult;
    expect(locations.isError).toBeFalsy();
    const backlinks = (await connected.callTool({
      name: 'get_backlinks',
      arguments: { domain: 'example.com', limit: 5 },
    })) as ToolResult;
    expect(backlinks.content[0].type).toBe('text');

    // The account area lists the connection.
    const list = await provider.browser.fetch(`${base}/account/v1/connections`);
    const body = (await list.json()) as {
      data: Array<{ id: number; client_name: string; client_id: string; scopes: string[] }>;
    };
    expect(body.data).toEqual([
      expect.objectContaining({
        client_name: 'SDK Test Assistant',
        client_id: provider.info!.client_id,
        scopes: ['seo:read', 'seo:write'],
      }),
    ]);

    // 3. Refresh: a rotated pair, and the new access token works.
    const refreshed = await token(base, {
      grant_type: 'refresh_token',
      refresh_token: provider.saved!.refresh_token,
      client_id: provider.info!.client_id,
    });
    expect(refreshed.status).toBe(200);
    provider.saveTokens({ ...provider.saved, ...(refreshed.json as unknown as OAuthTokens) });
    const again = (await connected.callTool({ name: 'get_usage', arguments: {} })) as ToolResult;
    expect(again.isError).toBeFalsy();

    // 4. Revoked in the account area → the next call is 401 invalid_token.
    const revoke = await provider.browser.fetch(
      `${base}/account/v1/connections/${body.data[0].id}`,
      {
        method: 'DELETE',
      },
    );
    expect(revoke.status).toBe(200);
    const raw = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${provider.saved!.access_token}`,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'MCP-Protocol-Version': '2025-06-18',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(raw.status).toBe(401);
    expect(raw.headers.get('www-authenticate')).toContain(
      `resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
    );
    expect(raw.headers.get('www-authenticate')).toContain('error="invalid_token"');
    provider.approve = false;
    await expect(connected.callTool({ name: 'get_usage', arguments: {} })).rejects.toThrow();
    const empty = await provider.browser.fetch(`${base}/account/v1/connections`);
    expect(((await empty.json()) as { data: unknown[] }).data).toEqual([]);
    await connected.close();
  });
});
