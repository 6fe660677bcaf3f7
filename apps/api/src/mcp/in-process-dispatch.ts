import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { AuthContext } from '@app/accounts';
import { INTERNAL_CALLER } from '@app/gateway';
import type { ApiMethod } from '@app/mcp-tools';

/** The status of a dispatch the caller cancelled before it was answered (as nginx logs it). */
export const CLIENT_CLOSED_REQUEST = 499;

export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

interface InternalRequest {
  method: ApiMethod;
  /** Path and query, e.g. /api/v1/backlinks?domain=example.com */
  url: string;
  body?: unknown;
  headers?: Record<string, string>;
  caller: AuthContext;
  /**
   * The tool call's cancellation: the response emits 'close' as a socket would when its
   * client goes away (a waiting GET /jobs/:id?wait= frees its slot), and the dispatch
   * settles at once with status 499 and no body.
   */
  signal?: AbortSignal;
}

interface InternalAnswer {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  text: string;
}

/**
 * Runs one request through the app's own Express handler (the whole pipeline: request id,
 * access log, body parser, AuthGuard → PlanGuard → RateLimitGuard → MeteringGuard →
 * validation → controller → envelope / exception filter) without a socket, and collects the
 * answer. The caller is set on the request object under INTERNAL_CALLER, which AuthGuard
 * accepts instead of a key; nothing from outside the process can set it.
 */
export function dispatchInternal(
  handler: RequestHandler,
  request: InternalRequest,
): Promise<InternalAnswer> {
  return new Promise((resolve, reject) => {
    const req = internalRequest(request);
    const { res, cancel } = collectingResponse(req, resolve);
    if (request.signal?.aborted) return cancel();
    request.signal?.addEventListener('abort', cancel, { once: true });
    res.once('finish', () => request.signal?.removeEventListener('abort', cancel));
    try {
      handler(req, res);
    } catch (error) {
      reject(error instanceof Error ? error : new Error(String(error)));
    }
  });
}

/** The request as a socket would deliver it: JSON body, headers, the caller under INTERNAL_CALLER. */
function internalRequest(request: InternalRequest): IncomingMessage {
  const socket = new Socket();
  Object.defineProperty(socket, 'remoteAddress', { value: '127.0.0.1' });
  const req = new IncomingMessage(socket);
  req.method = request.method;
  req.url = request.url;
  req.httpVersion = '1.1';
  req.httpVersionMajor = 1;
  req.httpVersionMinor = 1;
  const payload =
    request.body === undefined ? null : Buffer.from(JSON.stringify(request.body), 'utf8');
  const headers: Record<string, string> = {
    host: 'in-process',
    accept: 'application/json',
    ...request.headers,
  };
  if (payload) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(payload.length);
  }
  req.headers = headers;
  req.rawHeaders = Object.entries(headers).flat();
  if (payload) req.push(payload);
  req.push(null);
  (req as unknown as Record<symbol, unknown>)[INTERNAL_CALLER] = request.caller;
  return req;
}

/**
 * A response that collects what is written and settles with it at `end`; `cancel` settles
 * with 499 instead (and emits 'close', as a socket would when its client goes away).
 */
function collectingResponse(
  req: IncomingMessage,
  settle: (answer: InternalAnswer) => void,
): { res: ServerResponse; cancel: () => void } {
  const res = new ServerResponse(req);
  const chunks: Buffer[] = [];
  let done = false;
  // Own properties: they survive Express setting the response's prototype.
  Object.assign(res, {
    write(chunk: unknown, encoding?: unknown) {
      collectChunk(chunks, chunk, encoding);
      return true;
    },
    end(chunk?: unknown, encoding?: unknown) {
      if (done) return res;
      done = true;
      collectChunk(chunks, chunk, encoding);
      settle({
        status: res.statusCode,
        headers: res.getHeaders() as InternalAnswer['headers'],
        text: Buffer.concat(chunks).toString('utf8'),
      });
      res.emit('finish');
      res.emit('close');
      return res;
    },
  });
  const cancel = () => {
    if (done) return;
    done = true;
    res.emit('close');
    settle({ status: CLIENT_CLOSED_REQUEST, headers: {}, text: '' });
  };
  return { res, cancel };
}

/** A chunk given to write/end, as bytes (nothing for a callback or no chunk). */
function collectChunk(chunks: Buffer[], chunk: unknown, encoding?: unknown): void {
  if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
  chunks.push(
    Buffer.isBuffer(chunk)
      ? chunk
      : Buffer.from(
          chunk as string,
          typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8',
        ),
  );
}
