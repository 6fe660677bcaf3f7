import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ToolBackend } from '../backend';

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
}

export const READ_ONLY = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
} as const;
