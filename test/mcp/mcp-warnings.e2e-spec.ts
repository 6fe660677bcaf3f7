import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { AdminClient, TestAccount, bearer } from '../helpers/fixtures';
import { createTestApp, TestApp } from '../helpers/test-app';
import { ToolResult, allText, toolOk } from './mcp-harness';

/**
 * Issue 41, item 3, through the hosted connector: a value the API replaced by its default
 * (meta.warnings) reaches the assistant, in structuredContent (validated by the SDK client
 * against the tool's outputSchema) and in the text, before the data; a clean call says nothing.
 */
describe('MCP tool results carry meta.warnings (hosted /mcp)', () => {
  let t: TestApp;
  let acc: TestAccount;
  let client: Client;

  beforeAll(async () => {
    t = await createTestApp({ now: '2026-11-20T12:00:00Z' });
    acc = await new AdminClient(t.url).account('pro');
    client = new Client({ name: 'warnings-e2e', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), {
        requestInit: { headers: bearer(acc.key) },
      }),
    );
    await client.listTools(); // caches the output validators
  }, 120_000);

  afterAll(async () => {
    await client?.close().catch(() => undefined);
    await t?.close();
  });

  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as ToolResult;

  it('keyword_research with an unknown language_code: English applied, and the assistant is told', async () => {
    const res = await call('keyword_research', {
      keyword: 'running shoes',
      language_code: 'xx',
      limit: 3,
    });
    const ok = toolOk(res);
    expect(ok.data.language_code).toBe('en');
    const warnings = ok.meta.warnings as Array<Record<string, unknown>>;
    expect(warnings).toEqual([
      expect.objectContaining({ code: 'value_replaced', field: 'language_code' }),
    ]);
    const text = allText(res);
    expect(text).toContain('Warnings:');
    expect(text).toContain(String(warnings[0].message));
    // The warning comes before the data in the text the assistant reads first.
    expect(text.indexOf('Warnings:')).toBeLessThan(text.indexOf('running shoes'));
  });

  it('a clean call carries no warnings, in structuredContent or in the text', async () => {
    const res = await call('keyword_research', { keyword: 'running shoes', limit: 3 });
    const ok = toolOk(res);
    expect(ok.meta).not.toHaveProperty('warnings');
    expect(allText(res)).not.toContain('Warnings:');
  });
});
