import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ToolBackend } from '../backend';
import { errorResult } from '../tool-result';

/** What every tool module gets: the server to register on, the API backend and the run-time defaults. */
export interface ToolContext {
  server: McpServer;
  api: ToolBackend;
  pollIntervalMs: number;
  maxWaitMs: number;
  /** Longest `wait` of one GET /jobs/:id?wait= call, in seconds (default 60). */
  longPollSeconds?: number;
  /** Pause between run_site_audit's progress notifications (default 10 s). */
  progressIntervalMs?: number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /**
   * The OAuth scopes of the caller (hosted connector, OAuth access token); undefined for an
   * API key, which may call every tool.
   */
  scopes?: readonly string[];
}

export const READ_ONLY = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
} as const;

/**
 * The OAuth scope the tools that change the account's records (rank projects and keywords,
 * AI-visibility projects) need on the hosted connector. `seo:read` reads, and runs the
 * research and audit tools.
 */
export const WRITE_SCOPE = 'seo:write';

/** A write that adds (re-sending it changes nothing: the same record, or `already_tracked`). */
export const ADDS = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
} as const;

/** A write that sets values (repeating it gives the same record). */
export const SETS = ADDS;

/** A write that deletes records and their history. */
export const DELETES = { ...ADDS, destructiveHint: true, idempotentHint: false } as const;

/** The sentence every write tool's description carries. */
export const WRITE_NOTE = `Changes the account's records: over OAuth it needs the ${WRITE_SCOPE} scope (FORBIDDEN otherwise).`;

/**
 * A write tool's handler, run only when the caller may write: with an API key, or an OAuth
 * token carrying WRITE_SCOPE. Otherwise the tool error FORBIDDEN (meta.required_scope), and
 * nothing is sent to the API, so nothing is counted.
 */
export function writeHandler<A, E>(
  context: Pick<ToolContext, 'scopes'>,
  tool: string,
  handler: (args: A, extra: E) => Promise<CallToolResult>,
  /** What the tool changes, for the FORBIDDEN message. */
  records = 'rank tracking',
): (args: A, extra: E) => Promise<CallToolResult> {
  return async (args, extra) => {
    if (context.scopes === undefined || context.scopes.includes(WRITE_SCOPE)) {
      return handler(args, extra);
    }
    return errorResult({
      ok: false,
      status: null,
      code: 'FORBIDDEN',
      message:
        `${tool} changes the account's ${records} and needs the OAuth scope ${WRITE_SCOPE}; ` +
        `this connection was granted ${context.scopes.join(' ') || 'no scope'}. Nothing was sent to the API.`,
      meta: { required_scope: WRITE_SCOPE, granted_scopes: [...context.scopes] },
    });
  };
}
