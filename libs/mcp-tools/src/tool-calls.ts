import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { CallToolRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { InvalidParams } from './invalid-params';
import { errorResult } from './tool-result';

type Shape = z.ZodRawShape;
type Handler = (...args: unknown[]) => CallToolResult | Promise<CallToolResult>;
interface RecordedTool {
  input: z.ZodObject<Shape> | null;
  handler: Handler;
}

/** Any tools/call request, with or without params: they are checked here, so a malformed one answers -32602. */
const ANY_TOOL_CALL = z.object({ method: z.literal('tools/call'), params: z.unknown().optional() });

/**
 * The tools/call handler of the tool server, in place of the SDK's, so that a caller's
 * mistakes are answered as the caller's:
 * - params that are not a tool call (no `name`, `arguments` not an object): JSON-RPC -32602
 *   Invalid params with one sentence (the SDK answers -32603 with a schema dump);
 * - an unknown tool name: -32602, as the MCP specification lists for unknown tools;
 * - arguments that fail the tool's input schema: a tool result with isError and the API's
 *   VALIDATION_ERROR (`details` as `[{field, message}]`), nothing sent to the API, so nothing
 *   counted; the same shape the REST route's 422 gives.
 * Everything else runs the registered handler, as the SDK would; a handler that throws
 * becomes an isError result with its message.
 *
 * `record` must wrap `server.registerTool` before any tool is registered; `install` is
 * called once all are.
 */
export class ToolCalls {
  private readonly tools = new Map<string, RecordedTool>();

  constructor(private readonly server: McpServer) {}

  /** Keeps each tool's input schema and handler as it is registered on the server. */
  record(): void {
    const register = this.server.registerTool.bind(this.server) as (
      name: string,
      config: { inputSchema?: Shape },
      handler: Handler,
    ) => unknown;
    const wrapped = (name: string, config: { inputSchema?: Shape }, handler: Handler) => {
      this.tools.set(name, {
        input: config.inputSchema ? z.object(config.inputSchema) : null,
        handler,
      });
      return register(name, config, handler);
    };
    this.server.registerTool = wrapped as unknown as McpServer['registerTool'];
  }

  /**
   * Replaces the SDK's tools/call handler (tools/list stays the SDK's). Registered through
   * Protocol's own setRequestHandler: the Server's override would check the params first and
   * answer a schema dump; this class checks them itself. No tool of ours runs as a task, so
   * the Server's task-result check has nothing to do here.
   */
  install(): void {
    Protocol.prototype.setRequestHandler.call(
      this.server.server,
      ANY_TOOL_CALL,
      (request: unknown, extra: unknown) => this.call(request, extra),
    );
  }

  private async call(request: unknown, extra: unknown): Promise<CallToolResult> {
    const parsed = CallToolRequestSchema.safeParse(request);
    if (!parsed.success) {
      throw new InvalidParams(paramsProblem(parsed.error));
    }
    const { name, arguments: args } = parsed.data.params;
    const tool = this.tools.get(name);
    if (!tool) {
      throw new InvalidParams(
        `Unknown tool: ${name.slice(0, 100)}. Call tools/list for the tool names.`,
      );
    }
    try {
      if (!tool.input) return await tool.handler(extra);
      const input = tool.input.safeParse(args ?? {});
      if (!input.success) return validationResult(name, input.error);
      return await tool.handler(input.data, extra);
    } catch (err) {
      return {
        isError: true,
        content: [{ type: 'text', text: err instanceof Error ? err.message : String(err) }],
      };
    }
  }
}

/** One sentence for params that are not a tool call. */
function paramsProblem(error: z.ZodError): string {
  const issue = error.issues[0];
  if (issue?.path.length === 1 && issue.path[0] === 'params') {
    return 'Invalid params: tools/call needs params with the name of a tool (and its arguments).';
  }
  const field = issue?.path.filter((p) => p !== 'params').join('.') || 'params';
  if (field === 'name') return 'Invalid params: name must be the name of a tool (a string).';
  if (field === 'arguments') return 'Invalid params: arguments must be an object.';
  return `Invalid params: ${field} is not valid for tools/call.`;
}

/** VALIDATION_ERROR as a tool result: every failed argument with one message each. */
function validationResult(tool: string, error: z.ZodError): CallToolResult {
  const details: Array<{ field: string; message: string }> = [];
  for (const issue of error.issues) {
    const field = issue.path.join('.') || '(arguments)';
    if (details.some((d) => d.field === field)) continue; // the first failed rule per field
    details.push({ field, message: issue.message });
  }
  const list = details.map((d) => `${d.field}: ${d.message}`).join('; ');
  return errorResult({
    ok: false,
    status: null,
    code: 'VALIDATION_ERROR',
    message: `Invalid arguments for ${tool}: ${list}. Nothing was sent to the API.`,
    details,
    meta: {},
  });
}
