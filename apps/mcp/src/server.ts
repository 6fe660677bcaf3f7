import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Sleep, createToolServer } from '@app/mcp-tools';
import { ApiClient, FetchLike } from './api-client';
import { McpConfig } from './config';

export { SERVER_NAME, SERVER_VERSION } from '@app/mcp-tools';

interface ServerDeps {
  fetch?: FetchLike;
  sleep?: Sleep;
}

/** The local connector: the shared tools over the REST API (HTTP, the configured key). */
export function createMcpServer(config: McpConfig, deps: ServerDeps = {}): McpServer {
  return createToolServer(new ApiClient(config, deps.fetch), {
    pollIntervalMs: config.pollIntervalMs,
    maxWaitMs: config.maxWaitMs,
    progressIntervalMs: config.progressIntervalMs,
    // A long-poll must end before the HTTP timeout of one request (5 s to spare).
    longPollSeconds: Math.max(0, Math.min(60, Math.floor(config.requestTimeoutMs / 1000) - 5)),
    sleep: deps.sleep,
  });
}
