import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ApiClient, FetchLike } from './api-client';
import { McpConfig } from './config';
import { Sleep } from './job-poller';
import { registerAccountTools } from './tools/account-tools';
import { registerResearchTools } from './tools/research-tools';
import { registerSiteAuditTools } from './tools/site-audit-tools';
import { registerYourDataTools } from './tools/your-data-tools';

export const SERVER_NAME = 'seo-api';
export const SERVER_VERSION = '0.1.0';

const INSTRUCTIONS =
  'Search-marketing data of one account of the SEO data API. Every tool call is one metered API call. ' +
  'Research tools (get_backlinks, keyword_research, start_site_audit, run_site_audit) fetch fresh data and draw ' +
  'feature quota or credits; your-data tools (list_rank_keywords, get_rank_history, list_gsc_properties, query_gsc, ' +
  'list_ai_visibility_projects, get_share_of_voice) read data the account already collected, cost no quota and keep ' +
  'working when the monthly call cap is reached. Use get_usage to check the allowance. Errors carry the API error ' +
  'code (e.g. RATE_LIMITED with meta.retry_after, QUOTA_EXCEEDED) in structuredContent.error.';

export interface ServerDeps {
  fetch?: FetchLike;
  sleep?: Sleep;
}

/** The MCP server with one tool per REST endpoint plus run_site_audit; transport-agnostic. */
export function createMcpServer(config: McpConfig, deps: ServerDeps = {}): McpServer {
  const server = new McpServer(
    { name: SERVER_NAME, version: SERVER_VERSION },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  const context = {
    server,
    api: new ApiClient(config, deps.fetch),
    pollIntervalMs: config.pollIntervalMs,
    maxWaitMs: config.maxWaitMs,
    sleep: deps.sleep,
  };
  registerAccountTools(context);
  registerResearchTools(context);
  registerSiteAuditTools(context);
  registerYourDataTools(context);
  return server;
}
