import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ApiMethod, ApiResult, RequestOptions, ToolBackend } from '../backend';
import { createToolServer } from '../server';

/** A backend that records each call and answers an empty success. */
class RecordingBackend implements ToolBackend {
  calls: Array<{ method: ApiMethod; path: string; body?: unknown; key?: string }> = [];

  request(method: ApiMethod, path: string, options: RequestOptions = {}): Promise<ApiResult> {
    this.calls.push({ method, path, body: options.body, key: options.idempotencyKey });
    return Promise.resolve({ ok: true, status: 200, data: {}, meta: {} });
  }
}

const WRITES: Array<[string, Record<string, unknown>, ApiMethod, string, unknown]> = [
  [
    'create_rank_project',
    { domain: ' example.com ' },
    'POST',
    '/rank/projects',
    { domain: 'example.com' },
  ],
  [
    'update_rank_project',
    { project_id: 7, tracking: false },
    'PATCH',
    '/rank/projects/7',
    { tracking: false },
  ],
  ['delete_rank_project', { project_id: 7 }, 'DELETE', '/rank/projects/7', undefined],
  [
    'add_rank_keywords',
    { project_id: 7, keywords: ['a', { keyword: 'b', device: 'mobile' }], country: 'GB' },
    'POST',
    '/rank/projects/7/keywords',
    { keywords: ['a', { keyword: 'b', device: 'mobile' }], country: 'GB' },
  ],
  [
    'update_rank_keyword',
    { keyword_id: 9, status: 'paused' },
    'PATCH',
    '/rank/keywords/9',
    { status: 'paused' },
  ],
  ['delete_rank_keyword', { keyword_id: 9 }, 'DELETE', '/rank/keywords/9', undefined],
];

describe('rank tracking management tools: calls, annotations, the seo:write scope', () => {
  const clients: Client[] = [];
  afterAll(async () => {
    for (const c of clients) await c.close();
  });

  async function connected(scopes?: string[]) {
    const backend = new RecordingBackend();
    const server = createToolServer(backend, { pollIntervalMs: 100, maxWaitMs: 0, scopes });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(b);
    const client = new Client({ name: 'unit', version: '1.0.0' });
    await client.connect(a);
    clients.push(client);
    const call = async (name: string, args: Record<string, unknown> = {}) =>
      (await client.callTool({ name, arguments: args })) as CallToolResult;
    return { backend, client, call };
  }

  it('annotations: the list reads; adds are idempotent; deletes are destructive', async () => {
    const { client } = await connected();
    const tools = new Map((await client.listTools()).tools.map((t) => [t.name, t.annotations]));
    expect(tools.get('list_rank_projects')).toMatchObject({ readOnlyHint: true });
    for (const name of ['create_rank_project', 'add_rank_keywords']) {
      expect(tools.get(name)).toMatchObject({
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
      });
    }
    for (const name of ['update_rank_project', 'update_rank_keyword']) {
      expect(tools.get(name)).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    }
    for (const name of ['delete_rank_project', 'delete_rank_keyword']) {
      expect(tools.get(name)).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    }
  });

  it('with an API key (no scopes) or seo:write, each write calls its route with its body', async () => {
    for (const scopes of [undefined, ['seo:read', 'seo:write']]) {
      const { backend, call } = await connected(scopes);
      expect((await call('list_rank_projects')).isError).toBeFalsy();
      for (const [name, args] of WRITES) expect((await call(name, args)).isError).toBeFalsy();
      expect(backend.calls.map(({ method, path, body }) => [method, path, body])).toEqual([
        ['GET', '/rank/projects', undefined],
        ...WRITES.map(([, , method, path, body]) => [method, path, body]),
      ]);
      // POSTs carry an Idempotency-Key of their own; PATCH and DELETE none.
      const keys = backend.calls.filter((c) => c.method === 'POST').map((c) => c.key);
      expect(new Set(keys).size).toBe(2);
      expect(backend.calls.filter((c) => c.method !== 'POST' && c.key)).toEqual([]);
    }
  });

  it('with seo:read only, list_rank_projects reads and every write is FORBIDDEN, nothing sent', async () => {
    const { backend, call } = await connected(['seo:read']);
    expect((await call('list_rank_projects')).isError).toBeFalsy();
    for (const [name, args] of WRITES) {
      const res = await call(name, args);
      expect(res.isError).toBe(true);
      expect(res.structuredContent).toEqual({
        error: {
          code: 'FORBIDDEN',
          message: expect.stringContaining(`${name} changes the account's rank tracking`),
          http_status: null,
          meta: { required_scope: 'seo:write', granted_scopes: ['seo:read'] },
        },
      });
      const text = res.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
      expect(text).toMatch(/^API error FORBIDDEN \(refused before any API call\)/);
      expect(text).toContain('reconnect this app and approve seo:write');
    }
    expect(backend.calls.map((c) => `${c.method} ${c.path}`)).toEqual(['GET /rank/projects']);
  });

  it('bad arguments are VALIDATION_ERROR before the scope or the API', async () => {
    const { backend, call } = await connected();
    const res = await call('add_rank_keywords', {
      project_id: 1,
      keywords: [],
      device: 'tablet',
      country: 'USA',
    });
    expect(res.structuredContent).toMatchObject({
      error: {
        code: 'VALIDATION_ERROR',
        details: [
          { field: 'keywords', message: 'must list at least 1 keyword' },
          { field: 'country', message: 'must be a two-letter country code, e.g. US' },
          { field: 'device', message: expect.any(String) },
        ],
      },
    });
    expect(backend.calls).toEqual([]);
  });
});
