import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult, JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { declaredEndpoints } from '@app/gateway';
// Loads every controller, so that declaredEndpoints() knows every public route.
import '../../apps/api/src/api.module';
import { AdminClient, TestAccount } from '../helpers/fixtures';

const ROOT = resolve(__dirname, '../..');
/** The connector's sources, the libraries it imports and the OpenAPI document its output schemas come from. */
const SOURCES = [
  join(ROOT, 'apps/mcp/src'),
  join(ROOT, 'libs/mcp-tools/src'),
  join(ROOT, 'libs/core/src'),
  join(ROOT, 'libs/plans/src'),
  join(ROOT, 'clients/typescript/openapi.json'),
  join(ROOT, 'clients/typescript/src'),
];
/**
 * The connector compiles alone (apps/mcp/tsconfig.json: its sources plus libs/core, then
 * tsc-alias turns `@app/core` into a relative path, as `npm run build` does) in a few
 * seconds. The output sits under node_modules/.cache so Node resolves the SDK from the
 * repository's node_modules, exactly as dist/apps/mcp/src/main.js does; one directory per jest
 * worker, rebuilt only when a source file is newer than the build.
 */
const OUT = join(ROOT, 'node_modules/.cache/seo-api-mcp-e2e', String(process.pid));
export const MAIN = join(OUT, 'apps/mcp/src/main.js');

/** MCP tools that back no single endpoint, and why. */
export const WORKFLOW_TOOLS: Record<string, string> = {
  run_site_audit: 'POST /site-audit then GET /jobs/{job_id} long-polls, in one call',
};

/**
 * One tool per public endpoint (the `mcp` of its @Endpoint declaration) plus the workflow
 * tools, sorted.
 */
export const TOOL_NAMES = [
  ...declaredEndpoints().flatMap((e) => (e.declaration.mcp ? [e.declaration.mcp] : [])),
  ...Object.keys(WORKFLOW_TOOLS),
].sort();

function newestSource(dir: string): number {
  if (!statSync(dir).isDirectory()) return statSync(dir).mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Removes the builds of jest workers that have exited. */
function pruneStaleBuilds(): void {
  const base = dirname(OUT);
  if (!existsSync(base)) return;
  for (const name of readdirSync(base)) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      process.kill(pid, 0);
    } catch {
      rmSync(join(base, name), { recursive: true, force: true });
    }
  }
}

export function buildConnector(): string {
  pruneStaleBuilds();
  const newest = Math.max(...SOURCES.map(newestSource));
  if (existsSync(MAIN) && statSync(MAIN).mtimeMs >= newest) return MAIN;
  const project = join(ROOT, 'apps/mcp/tsconfig.json');
  for (const bin of ['typescript/bin/tsc', 'tsc-alias/dist/bin/index.js']) {
    execFileSync(process.execPath, [require.resolve(bin), '-p', project, '--outDir', OUT], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  }
  return MAIN;
}

export interface Connector {
  client: Client;
  /** Everything the server wrote to stderr so far. */
  stderr: () => string;
  /** Every message the server sent, as read off the wire (before the SDK client handles it). */
  received: JSONRPCMessage[];
  call: (name: string, args?: Record<string, unknown>) => Promise<ToolResult>;
  close: () => Promise<void>;
}

export type ToolResult = CallToolResult & {
  structuredContent?: Record<string, unknown> & {
    data?: Record<string, unknown> & { [k: string]: unknown };
    meta?: Record<string, unknown>;
    error?: {
      code: string;
      message: string;
      http_status: number | null;
      details?: unknown;
      meta: Record<string, unknown>;
    };
  };
};

/** Spawns `node <built main.js>` with only the given environment (plus PATH) and connects an MCP client over stdio. */
export async function connect(env: Record<string, string>): Promise<Connector> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [buildConnector()],
    env: { PATH: process.env.PATH ?? '', ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'seo-api-e2e', version: '1.0.0' });
  await client.connect(transport);
  // The SDK client keeps a validator of each tool's outputSchema from tools/list and checks
  // every structuredContent against it in callTool: every tool call of the suites is checked.
  await client.listTools();
  const received: JSONRPCMessage[] = [];
  const handle = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage) => {
    received.push(message);
    handle?.(message);
  };
  return {
    client,
    stderr: () => stderr,
    received,
    call: async (name, args = {}) =>
      (await client.callTool({ name, arguments: args })) as ToolResult,
    close: () => client.close(),
  };
}

/** The JSON text block of a result (the last text content) parsed. */
export function jsonText(result: ToolResult): unknown {
  const texts = (result.content ?? []).filter(
    (c): c is { type: 'text'; text: string } => c.type === 'text',
  );
  return JSON.parse(texts[texts.length - 1].text);
}

/** All text content joined. */
export function allText(result: ToolResult): string {
  return (result.content ?? []).map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

/** Runs the built connector with the given environment and an empty stdin: exit code, stdout, stderr. */
export function runBare(env: Record<string, string>): {
  status: number | null;
  stdout: string;
  stderr: string;
} {
  const res = spawnSync(process.execPath, [buildConnector()], {
    env: { PATH: process.env.PATH ?? '', ...env },
    input: '',
    timeout: 10_000,
  });
  return { status: res.status, stdout: res.stdout.toString(), stderr: res.stderr.toString() };
}

/** Admin view of the account's monthly call meter (what REST /usage counts). */
export async function usedCalls(admin: AdminClient, acc: TestAccount): Promise<number> {
  return (await admin.get(`/accounts/${acc.id}`)).body.data.usage.api_calls_per_month as number;
}

/** structuredContent of a successful tool result (fails with the tool's text otherwise). */
export function toolOk(res: ToolResult): Record<string, unknown> & {
  data: Record<string, unknown>;
  meta: Record<string, unknown>;
} {
  if (res.isError) throw new Error(`tool error: ${allText(res)}`);
  return res.structuredContent as ReturnType<typeof toolOk>;
}

/**
 * The structured error of a failed tool result, after checking that the text carries the same
 * code and message and that the JSON text block equals structuredContent.
 */
export function toolError(
  res: ToolResult,
): NonNullable<NonNullable<ToolResult['structuredContent']>['error']> {
  expect(res.isError).toBe(true);
  const e = res.structuredContent?.error;
  if (!e) throw new Error(`no structured error: ${allText(res)}`);
  expect(allText(res)).toContain(e.code);
  expect(allText(res)).toContain(e.message);
  expect(jsonText(res)).toEqual(res.structuredContent);
  return e;
}
