import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';

/**
 * A JSON-RPC -32602 Invalid params error whose message is the sentence itself. The SDK's
 * McpError puts "MCP error -32602: " in front of its message, and that message is what goes
 * on the wire; SDK clients then add the same prefix again, so a caller would read it twice.
 * The protocol layer answers any thrown error with its `code` and `message`, so this plain
 * error is enough.
 */
export class InvalidParams extends Error {
  readonly code = ErrorCode.InvalidParams;

  constructor(message: string) {
    super(message);
    this.name = 'InvalidParams';
  }
}

interface SchemaIssue {
  path: PropertyKey[];
  message?: string;
}

interface SchemaError {
  name: string;
  issues: SchemaIssue[];
}

const isSchemaError = (err: unknown): err is SchemaError =>
  err instanceof Error &&
  /^\$?ZodError$/.test(err.name) &&
  Array.isArray((err as Partial<SchemaError>).issues);

/**
 * One sentence for request params that fail the SDK's schema of a method: the first failed
 * member, e.g. "Invalid params: params.cursor is not valid for tools/list (expected string,
 * received number)." or
 * "Invalid params: initialize needs params.protocolVersion.".
 */
export function paramsSentence(method: string, issues: SchemaIssue[]): string {
  const issue = issues[0];
  const field = (issue?.path ?? []).map(String).join('.') || 'params';
  const m = method.slice(0, 64);
  if (/received undefined/.test(issue?.message ?? '')) {
    return `Invalid params: ${m} needs ${field}.`;
  }
  const detail = (issue?.message ?? '')
    .replace(/^Invalid input:?\s*/i, '')
    .replace(/[\s]+/g, ' ')
    .replace(/[{}[\]]/g, '')
    .trim()
    .slice(0, 80);
  return detail
    ? `Invalid params: ${field} is not valid for ${m} (${detail}).`
    : `Invalid params: ${field} is not valid for ${m}.`;
}

/**
 * The SDK checks a request's params against the method's schema before its handler runs and
 * throws the schema library's error when they do not fit: the protocol layer then answers
 * -32603 Internal error with the whole multi-line issue list as its message. Those are the
 * caller's mistakes (tools/list with `{"cursor": 5}`, initialize without params or with a
 * number as protocolVersion), so every request handler of the server is wrapped: a schema
 * error about the request's `params` becomes -32602 with one sentence. Anything else a
 * handler throws is left as it is.
 *
 * Call once every handler is set (after the tools are registered, before connect).
 */
export function answerParamsErrorsAsInvalidParams(server: McpServer): void {
  const handlers = (
    server.server as unknown as {
      _requestHandlers: Map<string, (request: unknown, extra: unknown) => Promise<unknown>>;
    }
  )._requestHandlers;
  for (const [method, handler] of handlers) {
    handlers.set(method, async (request, extra) => {
      try {
        return await handler(request, extra);
      } catch (err) {
        if (isSchemaError(err) && err.issues.length > 0 && err.issues[0].path[0] === 'params') {
          throw new InvalidParams(paramsSentence(method, err.issues));
        }
        throw err;
      }
    });
  }
}
