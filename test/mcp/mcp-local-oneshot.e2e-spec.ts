import { spawn } from 'node:child_process';
import { AdminClient } from '../helpers/fixtures';
import { createTestApp, TestApp } from '../helpers/test-app';
import { Connector, allText, buildConnector, connect, toolOk } from './mcp-harness';

interface RpcLine {
  id?: number;
  result: {
    serverInfo: { name: string };
    structuredContent: { meta: Record<string, unknown>; data: { backlinks: unknown[] } };
  };
}

/** The local package: piped one-shot use answers the calls already read before exiting; `fields`. */
describe('local MCP package: stdin closing, fields', () => {
  let t: TestApp;
  let admin: AdminClient;
  const open: Connector[] = [];

  beforeAll(async () => {
    buildConnector();
    t = await createTestApp({ now: '2026-11-20T12:00:00Z' });
    admin = new AdminClient(t.url);
  }, 120_000);

  afterAll(async () => {
    for (const c of open) await c.close().catch(() => undefined);
    await t?.close();
  });

  /** `printf '<messages>' | seo-api-mcp`: stdout lines, exit code. */
  function pipe(env: Record<string, string>, messages: unknown[]) {
    return new Promise<{ lines: RpcLine[]; code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [buildConnector()], {
        env: { PATH: process.env.PATH ?? '', ...env },
      });
      let out = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      child.on('close', (code) =>
        resolve({
          lines: out
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l) as RpcLine),
          code,
          stderr,
        }),
      );
      child.stdin.end(messages.map((m) => JSON.stringify(m)).join('\n') + '\n');
    });
  }

  it('answers initialize and a tools/call piped in one go, then exits 0', async () => {
    const acc = await admin.account('pro', undefined, 'piped key');
    const { lines, code, stderr } = await pipe({ SEO_API_KEY: acc.key, SEO_API_BASE_URL: t.url }, [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'printf', version: '1' },
        },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_usage', arguments: {} } },
      {
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'get_backlinks', arguments: { domain: 'example.com', limit: 3 } },
      },
    ]);
    expect(code).toBe(0);
    expect(stderr).toContain('stdin closed');
    const byId = Object.fromEntries(lines.map((l) => [l.id, l]));
    expect(byId[1].result.serverInfo.name).toBe('seo-api');
    expect(byId[2].result.structuredContent.meta.key_name).toBe('piped key');
    expect(byId[3].result.structuredContent.data.backlinks).toHaveLength(3);
  });

  it('fields keeps only the named members of each row (backlinks, keyword research, gsc queries, rank keywords); without it the data is whole', async () => {
    const acc = await admin.account('agency', { api_calls_per_month: 'unlimited' });
    const c = await connect({ SEO_API_KEY: acc.key, SEO_API_BASE_URL: t.url });
    open.push(c);
    const full = toolOk(await c.call('keyword_research', { keyword: 'running shoes', limit: 3 }));
    const slim = await c.call('keyword_research', {
      keyword: 'running shoes',
      limit: 3,
      fields: ['keyword', 'search_volume'],
    });
    const rows = toolOk(slim).data.related_keywords as Array<Record<string, unknown>>;
    const fullRows = full.data.related_keywords as Array<Record<string, unknown>>;
    expect(rows.length).toBe(fullRows.length);
    expect(rows).toEqual(
      fullRows.map((r) => ({ keyword: r.keyword, search_volume: r.search_volume })),
    );
    // The text is a summary of structuredContent (issue 36, item 6), with the reduced rows.
    expect(allText(slim)).toContain(`data.related_keywords: ${rows.length} row`);
    expect(allText(slim)).not.toContain('"difficulty"');
    expect(toolOk(slim).data.keyword).toEqual(full.data.keyword);

    // A bad fields value is refused by the schema before any call.
    const bad = await c.call('get_backlinks', { domain: 'example.com', fields: ['bad name'] });
    expect(bad.isError).toBe(true);
    // rank keywords and gsc queries accept it too (empty lists here).
    expect(
      toolOk(await c.call('list_rank_keywords', { fields: ['keyword'] })).data.keywords,
    ).toEqual([]);
  });
});
