#!/usr/bin/env node
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { PROGRESS_MAX_WAIT_MS } from '@app/mcp-tools';
import { trackInFlight } from './in-flight';
import { ConfigError, loadMcpConfig } from './config';
import { SERVER_VERSION, createMcpServer } from './server';

/**
 * seo-api-mcp: the local MCP connector over stdio. stdout is the protocol channel, so every
 * diagnostic goes to stderr, and the API key is never printed.
 */
const log = (message: string) => process.stderr.write(`[seo-api-mcp] ${message}\n`);

async function main(): Promise<void> {
  let config;
  try {
    config = loadMcpConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      log(`configuration error: ${error.message}`);
      process.exit(2);
    }
    throw error;
  }
  const server = createMcpServer(config);
  const transport = new StdioServerTransport();
  const shutdown = (reason: string) => {
    log(`shutting down (${reason})`);
    server
      .close()
      .catch(() => undefined)
      .finally(() => process.exit(0));
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  await server.connect(transport);
  // stdin closing (a piped one-shot `printf ... | seo-api-mcp`) ends the input, not the calls
  // already read: answer them, then exit (bounded by the longest a call may take).
  const inFlight = trackInFlight(transport);
  process.stdin.on('end', () => {
    // run_site_audit may wait up to PROGRESS_MAX_WAIT_MS for a client that follows progress
    const bound = Math.max(config.maxWaitMs, PROGRESS_MAX_WAIT_MS) + 2 * config.requestTimeoutMs;
    const timer = setTimeout(() => shutdown('stdin closed; calls still running'), bound);
    timer.unref();
    void inFlight.idle().then(() => shutdown('stdin closed'));
  });
  log(`v${SERVER_VERSION} ready on stdio; API ${config.baseUrl}`);
}

process.on('unhandledRejection', (reason) => log(`unhandled rejection: ${String(reason)}`));

main().catch((error: unknown) => {
  log(`fatal: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
