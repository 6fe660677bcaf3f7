import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ToolBackend } from './backend';
import { answerParamsErrorsAsInvalidParams } from './invalid-params';
import { Sleep } from './job-poller';
import { ToolCalls } from './tool-calls';
import { registerAccountTools } from './tools/account-tools';
import { publishOutputSchemas } from './tools/output-schemas';
import { registerResearchTools } from './tools/research-tools';
import { registerSiteAuditTools } from './tools/site-audit-tools';
import { registerYourDataTools } from './tools/your-data-tools';

export const SERVER_NAME = 'seo-api';
export const SERVER_VERSION = '0.2.0';

const INSTRUCTIONS =
  'Search-marketing data of one account of the SEO data API. Every tool call is one metered API call. ' +
  'Research tools (get_backlinks, keyword_research, start_site_audit, run_site_audit) fetch fresh data and draw ' +
  'feature quota or credits; your-data tools (list_rank_keywords, get_rank_history, list_gsc_properties, query_gsc, ' +
  'list_ai_visibility_projects, get_share_of_voice) read data the account already collected, cost no quota and keep ' +
  'working when the monthly call cap is reached. Rank tracking is managed with list_rank_projects, create_rank_project, ' +
  'update_rank_project, delete_rank_project, add_rank_keywords, update_rank_keyword and delete_rank_keyword (your-data ' +
  'calls too; all but the first change records and, over OAuth, need the seo:write scope); AI-visibility projects with ' +
  'create_ai_visibility_project, get_ai_visibility_settings, update_ai_visibility_project and ' +
  'delete_ai_visibility_project (the same: writes need seo:write). Use get_usage to check the allowance. Errors carry the API error ' +
  'code (e.g. RATE_LIMITED with meta.retry_after, QUOTA_EXCEEDED) in structuredContent.error. Tools with long lists ' +
  '(get_backlinks, keyword_research, query_gsc, list_rank_keywords) accept `fields` to keep only some members of each row.';

interface ToolServerOptions {
  /**
   * run_site_audit's pause after a long-poll the API answered early without a final state
   * (its waiting limits), in milliseconds.
   */
  pollIntervalMs: number;
  /** Default longest wait of run_site_audit, in milliseconds. */
  maxWaitMs: number;
  /** Longest `wait` of one long-poll call, in seconds (default and maximum 60). */
  longPollSeconds?: number;
  /** Pause between run_site_audit's progress notifications in milliseconds (default 10 s). */
  progressIntervalMs?: number;
  sleep?: Sleep;
  /**
   * The OAuth scopes of the caller on the hosted connector; undefined for an API key (every
   * tool). Without `seo:write` the write tools answer FORBIDDEN (tools/tool-context.ts).
   */
  scopes?: readonly string[];
}

/**
 * The MCP server with one tool per REST endpoint plus run_site_audit, over any backend and
 * any transport: the one definition of names, schemas, descriptions, annotations and result
 * mapping shared by the local stdio package and the hosted /mcp endpoint.
 */
export function createToolServer(backend: ToolBackend, options: ToolServerOptions): McpServer {
  const server = new McpServer(
    { name: SERVER_NAME, version: SERVER_VERSION },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  const context = {
    server,
    api: backend,
    pollIntervalMs: options.pollIntervalMs,
    maxWaitMs: options.maxWaitMs,
    longPollSeconds: options.longPollSeconds,
    progressIntervalMs: options.progressIntervalMs,
    sleep: options.sleep,
    scopes: options.scopes,
  };
  const calls = new ToolCalls(server);
  calls.record();
  registerAccountTools(context);
  registerResearchTools(context);
  registerSiteAuditTools(context);
  registerYourDataTools(context);
  calls.install();
  publishOutputSchemas(server);
  // The tool list never changes while a server runs, and the hosted endpoint is stateless (no
  // stream to send a notification on): advertise no tools/list_changed (the SDK sets
  // listChanged: true when the first tool is registered).
  server.server.registerCapabilities({ tools: { listChanged: false } });
  answerParamsErrorsAsInvalidParams(server);
  return server;
}
