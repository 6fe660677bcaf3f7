import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { ToolBackend } from './backend';
import { createToolServer } from './server';
import { outputSchemas } from './tools/output-schemas';

/**
 * The shared tool server (local package and /mcp alike) over an in-memory transport, driven
 * with raw JSON-RPC: what a caller's malformed params are answered with, and the capabilities.
 */
describe('tool server: malformed params are -32602 in one sentence; capabilities', () => {
  const backend: ToolBackend = {
    request: () => Promise.resolve({ ok: true, status: 200, data: {}, meta: {} }),
  };
  let client: InMemoryTransport;
  let answers: Map<number | string, JSONRPCMessage>;
  let nextId = 1;

  beforeEach(async () => {
    const server = createToolServer(backend, { pollIntervalMs: 100, maxWaitMs: 0 });
    const [a, b] = InMemoryTransport.createLinkedPair();
    client = a;
    answers = new Map();
    client.onmessage = (m) => {
      if ('id' in m && m.id !== undefined) answers.set(m.id, m);
    };
    await server.connect(b);
    await client.start();
  });
  afterEach(() => client.close());

  async function rpc(method: string, params?: unknown) {
    const id = nextId++;
    const message = { jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) };
    await client.send(message as JSONRPCMessage);
    for (let i = 0; i < 200 && !answers.has(id); i++) await new Promise((r) => setImmediate(r));
    return answers.get(id) as {
      result?: Record<string, unknown>;
      error?: { code: number; message: string };
    };
  }

  const INIT = {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'unit', version: '1' },
  };

  it.each([
    ['tools/call', undefined, 'tools/call needs params'],
    ['tools/call', {}, 'name must be the name of a tool'],
    ['tools/call', { name: 'no_such_tool' }, 'Unknown tool: no_such_tool'],
    ['tools/list', { cursor: 5 }, 'params.cursor is not valid for tools/list'],
    ['tools/list', { cursor: ['a'] }, 'params.cursor is not valid for tools/list'],
    ['initialize', undefined, 'initialize needs params'],
    ['initialize', { ...INIT, protocolVersion: 5 }, 'params.protocolVersion is not valid'],
    ['initialize', { protocolVersion: '2025-06-18' }, 'initialize needs params.capabilities'],
  ])('%s with params %j → -32602 "%s"', async (method, params, says) => {
    const answer = await rpc(method, params);
    expect(answer.result).toBeUndefined();
    expect(answer.error?.code).toBe(-32602);
    const message = answer.error!.message;
    expect(message).toContain(says);
    expect(message).toMatch(/^(Invalid params: |Unknown tool: )/);
    expect(message).not.toMatch(/MCP error/);
    expect(message).not.toMatch(/[\n{}[\]]/);
    expect(message.length).toBeLessThanOrEqual(160);
  });

  it('well-formed requests still work; ping and an unknown method keep their answers', async () => {
    const init = await rpc('initialize', INIT);
    expect(init.result?.protocolVersion).toBe('2025-06-18');
    const list = await rpc('tools/list', {});
    const names = (list.result?.tools as Array<{ name: string }>).map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['get_usage', 'run_site_audit', 'list_jobs']));
    expect(names.length).toBe(Object.keys(outputSchemas()).length); // every tool, each once
    expect((await rpc('tools/list')).result?.tools).toBeDefined();
    expect((await rpc('ping')).result).toEqual({});
    expect((await rpc('resources/list', {})).error?.code).toBe(-32601);
    const called = await rpc('tools/call', { name: 'get_usage', arguments: {} });
    expect(called.result?.isError).toBeFalsy();
  });

  it('advertises tools without listChanged: the list never changes and /mcp has no stream', async () => {
    const init = await rpc('initialize', INIT);
    const capabilities = init.result?.capabilities as { tools?: { listChanged?: boolean } };
    expect(capabilities.tools).toBeDefined();
    expect(capabilities.tools?.listChanged).toBe(false);
  });
});
