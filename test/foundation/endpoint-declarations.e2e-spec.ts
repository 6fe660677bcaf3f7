import { Type } from '@nestjs/common';
import { ModulesContainer, NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { SeoApiClient } from '@seo-api/client';
import {
  DeclaredEndpoint,
  EnvelopeExpressAdapter,
  declaredEndpoints,
  routeOf,
  sampleToolArgs,
} from '@app/gateway';
import { ToolBackend, createToolServer } from '@app/mcp-tools';
import { ApiModule } from '../../apps/api/src/api.module';
import { SPEC_ORDER, publicDocument } from '../../apps/api/src/ops/openapi';
import { publicFuzzRoutes } from '../helpers/fuzz-routes';
import { CallAnswer, answerCalls } from '../helpers/openapi-answers';
import { WORKFLOW_TOOLS } from '../mcp/mcp-harness';

type Doc = {
  paths: Record<
    string,
    Record<
      string,
      { responses?: Record<string, unknown>; parameters?: Array<{ name: string; in: string }> }
    >
  >;
  components: { schemas: Record<string, unknown> };
};

/** Every route the app registers, from its controllers (Nest's own route metadata). */
function registeredRoutes(app: NestExpressApplication) {
  const out: Array<{ key: string; declared: boolean }> = [];
  for (const module of app.get(ModulesContainer).values()) {
    for (const { metatype } of module.controllers.values()) {
      if (!metatype) continue;
      for (const name of Object.getOwnPropertyNames(metatype.prototype)) {
        const route = name === 'constructor' ? null : routeOf(metatype as Type<unknown>, name);
        if (!route) continue;
        const declared = route.declaration !== undefined;
        out.push({ key: `${route.method} ${route.path}`, declared });
      }
    }
  }
  return out;
}

/** The tool list of the MCP server, and the REST call each tool makes for given arguments. */
async function toolServer() {
  const made: Array<{ method: string; path: string }> = [];
  // Each call is answered as an unknown record: the tool's REST call is what is looked at.
  const backend: ToolBackend = {
    request: (method, path) => {
      made.push({ method, path });
      return Promise.resolve({
        ok: false,
        status: 404,
        code: 'NOT_FOUND',
        message: 'Not found.',
        meta: { timestamp: '2026-11-24T09:30:00.000+00:00', request_id: 'req_1' },
      });
    },
  };
  const server = createToolServer(backend, { pollIntervalMs: 100, maxWaitMs: 0 });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(b);
  const client = new Client({ name: 'endpoint-declarations', version: '1' });
  await client.connect(a);
  const tools = (await client.listTools()).tools.map((t) => t.name);
  const callOf = async (tool: string, args: Record<string, unknown>) => {
    made.length = 0;
    const failed = await client.callTool({ name: tool, arguments: args }).then(
      () => null,
      (error: Error) => `${tool} failed: ${error.message}`,
    );
    if (failed) return [failed];
    return made.map((m) => `${m.method.toLowerCase()} /api/v1${m.path.split('?')[0]}`);
  };
  return { tools, callOf, close: () => client.close() };
}

/** The declaration's example call as a path (path parameters filled in) and tool arguments. */
function example(e: DeclaredEndpoint): { path: string; args: Record<string, unknown> } {
  const { path } = e.declaration.sample;
  let filled = e.path;
  for (const [name, value] of Object.entries(path ?? {}))
    filled = filled.replace(`{${name}}`, encodeURIComponent(value));
  return { path: filled, args: sampleToolArgs(e.declaration.sample) };
}

/**
 * Issue 37: one declaration per public route (`@Endpoint`, libs/gateway/src/endpoint.ts). The
 * document, the metering group, the fuzz walk and the answers suite are derived from it; this
 * suite fails when a public route has no declaration, or its declaration names a client method
 * or MCP tool that does not exist, or the fuzz walk or the answers suite leaves it out.
 */
describe('endpoint declarations: every public route is declared, documented and covered (issue 37)', () => {
  let app: NestExpressApplication;
  let doc: Doc;
  let declared: DeclaredEndpoint[];
  let mcp: Awaited<ReturnType<typeof toolServer>>;
  const routeKeys = () => declared.map((e) => `${e.method} ${e.path}`).sort();

  beforeAll(async () => {
    // What `npm run openapi:write` uses: Nest's preview mode, no provider created.
    app = await NestFactory.create<NestExpressApplication>(
      ApiModule,
      new EnvelopeExpressAdapter(),
      { preview: true, logger: false, abortOnError: false },
    );
    doc = JSON.parse(JSON.stringify(publicDocument(app))) as Doc;
    declared = declaredEndpoints();
    mcp = await toolServer();
  });
  afterAll(async () => {
    await mcp?.close();
    await app?.close();
  });

  it('every /api/v1 route the app registers is declared with @Endpoint, and only those', () => {
    const routes = registeredRoutes(app);
    const publicRoutes = routes.filter((r) => r.key.split(' ')[1].startsWith('/api/v1/'));
    expect(publicRoutes.length).toBeGreaterThan(0);
    expect(publicRoutes.filter((r) => !r.declared).map((r) => r.key)).toEqual([]);
    expect(
      routes
        .filter((r) => r.declared)
        .map((r) => r.key)
        .sort(),
    ).toEqual(routeKeys());
    expect(Object.keys(doc.paths).sort()).toEqual([...new Set(declared.map((e) => e.path))].sort());
  });

  it('operation ids and client methods are unique; SPEC_ORDER names declared operations', () => {
    const ids = declared.map((e) => e.declaration.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const clients = declared.map((e) => e.declaration.client);
    expect(new Set(clients).size).toBe(clients.length);
    expect(SPEC_ORDER.filter((id) => !ids.includes(id))).toEqual([]);
  });

  it('each has a named success schema in the document', () => {
    for (const e of declared) {
      const responses = doc.paths[e.path]?.[e.method]?.responses ?? {};
      const success = Object.entries(responses).filter(([status]) => status.startsWith('2'));
      const ref = (success[0]?.[1] as { content?: Record<string, { schema?: { $ref?: string } }> })
        ?.content?.['application/json']?.schema?.$ref;
      const name = ref?.replace('#/components/schemas/', '');
      expect({
        route: `${e.method} ${e.path}`,
        successes: success.length,
        schema: !!name && name in doc.components.schemas,
      }).toEqual({
        route: `${e.method} ${e.path}`,
        successes: 1,
        schema: true,
      });
    }
  });

  it('each names a method of the typed client (SeoApiClient)', () => {
    const proto = SeoApiClient.prototype as unknown as Record<string, unknown>;
    const missing = declared
      .filter((e) => typeof proto[e.declaration.client] !== 'function')
      .map((e) => `${e.declaration.operationId}: SeoApiClient.${e.declaration.client}`);
    expect(missing).toEqual([]);
  });

  it('each names an MCP tool that calls it with the sample arguments, or says why it has none', async () => {
    for (const e of declared) {
      const route = `${e.method} ${e.path}`;
      const d = e.declaration;
      if (d.mcp === undefined) {
        expect({ route, reason: d.noMcpTool.trim().length > 0 }).toEqual({ route, reason: true });
        continue;
      }
      expect({ route, tool: d.mcp, listed: mcp.tools.includes(d.mcp) }).toEqual({
        route,
        tool: d.mcp,
        listed: true,
      });
      const { path, args } = example(e);
      expect({ route, calls: await mcp.callOf(d.mcp, args) }).toEqual({
        route,
        calls: [`${e.method} ${path}`],
      });
    }
  });

  it('every MCP tool backs a declared endpoint or is a named workflow tool', () => {
    const backing = new Set(declared.map((e) => e.declaration.mcp));
    const unaccounted = mcp.tools.filter((t) => !backing.has(t) && !(t in WORKFLOW_TOOLS));
    expect(unaccounted).toEqual([]);
  });

  it('the fuzz suite walks every declared route', () => {
    const walked = new Set(publicFuzzRoutes(doc).map((r) => `${r.method.toLowerCase()} ${r.path}`));
    const missing = declared
      .map((e) => `${e.method} ${e.path.replace(/\{[^}]+\}/g, ':seg')}`)
      .filter((k) => !walked.has(k));
    expect(missing).toEqual([]);
  });

  it('the openapi-answers suite has a valid call of every declared route', () => {
    const none = (): Promise<CallAnswer> => Promise.reject(new Error('not called here'));
    const calls = answerCalls({
      get: none,
      post: none,
      patch: none,
      del: none,
      siteOrigin: () => 'http://127.0.0.1',
      ids: {
        project: 0,
        keyword: 0,
        property: 0,
        aiProject: 0,
        spareProject: 0,
        spareKeyword: 0,
        spareAiProject: 0,
      },
    });
    expect(Object.keys(calls).sort()).toEqual(routeKeys());
  });
});
