import type { Server } from 'node:http';

/** The HTTP server's bounds on a client (AppConfig.httpTimeouts). */
export interface HttpServerTimeouts {
  /** The whole header block must arrive within this (HTTP_HEADERS_TIMEOUT_MS). */
  headersTimeoutMs: number;
  /** The whole request, headers and body, must arrive within this (HTTP_REQUEST_TIMEOUT_MS). */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this (HTTP_KEEP_ALIVE_TIMEOUT_MS). */
  keepAliveTimeoutMs: number;
}

/** How often Node looks for requests past their header or request timeout (ms). */
const CHECK_INTERVAL_MS = 1000;

/**
 * Bounds what a slow client can hold (docs/reliability.md, "Timeouts"). Node's defaults let a
 * client trickle a body for 300 s (`requestTimeout`) and headers for 60 s; both count from
 * the request's start, so sending a byte now and then does not stretch them. Node checks
 * them every `connectionsCheckingInterval` (30 s by default, read when the server starts
 * listening), so that is shortened too: call this before `listen`. A request past its bound
 * answers 408 with the error envelope and the connection is closed
 * (`installClientErrorHandler`). The answer itself is not bounded here: a long-poll
 * (`GET /jobs/{id}?wait=60`) has received its whole request at once.
 */
export function applyServerTimeouts(server: Server, timeouts: HttpServerTimeouts): void {
  server.headersTimeout = timeouts.headersTimeoutMs;
  server.requestTimeout = timeouts.requestTimeoutMs;
  server.keepAliveTimeout = timeouts.keepAliveTimeoutMs;
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval =
    Math.min(CHECK_INTERVAL_MS, timeouts.headersTimeoutMs);
}
