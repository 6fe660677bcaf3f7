import { createServer as createHttpServer, Server as HttpServer } from 'node:http';
import { AddressInfo, createServer, Server, Socket } from 'node:net';
import { SeoApiError } from '@seo-api/client';

/** One request the client sent through a recording fetch, with what came back. */
export interface Exchange {
  method: string;
  /** Path and query string. */
  path: string;
  status: number;
  requestId: string | null;
  /** The body of an error answer (read from a clone), for its meta. */
  errorBody?: Record<string, unknown>;
  /** Whether the answer was injected by the test instead of coming from the server. */
  injected: boolean;
  startedAt: number;
  endedAt: number;
}

/**
 * A `fetch` for the client's `fetch` option that records every request it sends and what
 * came back, and can inject an answer at the HTTP edge instead of asking the server (`inject`
 * answers a Response for the n-th request, or undefined to let it through).
 */
export function recordingFetch(inject?: (request: Request, n: number) => Response | undefined) {
  const log: Exchange[] = [];
  let n = 0;
  const impl = async (request: Request): Promise<Response> => {
    const startedAt = Date.now();
    const injected = inject?.(request, n++);
    const response = injected ?? (await fetch(request));
    const url = new URL(request.url);
    const exchange: Exchange = {
      method: request.method,
      path: url.pathname + url.search,
      status: response.status,
      requestId: response.headers.get('x-request-id'),
      injected: injected !== undefined,
      startedAt,
      endedAt: Date.now(),
    };
    if (response.status >= 400) {
      try {
        exchange.errorBody = JSON.parse(await response.clone().text()) as Record<string, unknown>;
      } catch {
        // not JSON: left out
      }
    }
    log.push(exchange);
    return response;
  };
  return { log, fetch: impl };
}

/** An injected JSON answer (an error envelope unless `body` is given). */
export function jsonAnswer(
  status: number,
  headers: Record<string, string> = {},
  body: unknown = {
    success: false,
    error: { code: 'SERVICE_UNAVAILABLE', message: 'Injected at the HTTP edge.' },
    meta: { timestamp: new Date().toISOString(), request_id: 'req_injected' },
  },
): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

/** The SeoApiError a call rejects with (fails the test when it resolves or throws another error). */
export async function rejection(call: Promise<unknown>): Promise<SeoApiError> {
  let result: unknown;
  try {
    result = await call;
  } catch (error) {
    if (error instanceof SeoApiError) return error;
    throw new Error(`expected a SeoApiError, got ${String(error)}`, { cause: error });
  }
  throw new Error(`expected a SeoApiError, the call answered ${JSON.stringify(result)}`);
}

/** Resolves after `ms`. */
export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** A TCP server that accepts connections and never answers anything. */
export async function silentServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** An HTTP server that sends 200 JSON headers and the start of a body, then never the rest. */
export async function stallingServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const server: HttpServer = createHttpServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '1000' });
    res.write('{"success":true,"data":{');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
