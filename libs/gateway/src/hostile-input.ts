import { ServerResponse, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { NextFunction, Request, Response } from 'express';
import { ApiError } from '@app/core';

/** Deepest nesting of objects/arrays a parsed body may have (the deepest DTO needs far less). */
const MAX_BODY_DEPTH = 32;
/** Most values (objects, arrays, scalars) a parsed body may hold. */
const MAX_BODY_NODES = 100_000;

/**
 * Why the parsed body is refused, or null. Iterative (no recursion), so a hostile body
 * cannot exhaust the stack here; it stops at the first bound crossed.
 */
export function bodyBoundViolation(
  body: unknown,
  maxDepth = MAX_BODY_DEPTH,
  maxNodes = MAX_BODY_NODES,
): string | null {
  if (body === null || typeof body !== 'object') return null;
  const stack: Array<[unknown, number]> = [[body, 1]];
  let nodes = 0;
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (++nodes > maxNodes) return `The request body holds more than ${maxNodes} values.`;
    if (value === null || typeof value !== 'object') continue;
    if (depth > maxDepth) return `The request body is nested deeper than ${maxDepth} levels.`;
    const children = Array.isArray(value) ? value : Object.values(value as object);
    for (const child of children) stack.push([child, depth + 1]);
  }
  return null;
}

/**
 * Express middleware registered right after the JSON body parser: a parsed body deeper or
 * larger than the bounds is refused with 400 BAD_REQUEST before any guard, pipe or
 * class-transformer sees it (so it is never counted on the meter).
 */
export function bodyBounds(maxDepth = MAX_BODY_DEPTH, maxNodes = MAX_BODY_NODES) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    const problem = bodyBoundViolation(req.body, maxDepth, maxNodes);
    if (problem) return next(new ApiError('BAD_REQUEST', `Malformed request: ${problem}`));
    next();
  };
}

const CLIENT_ERRORS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'BAD_REQUEST', 'Request headers are too large.'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'BAD_REQUEST', 'Request timed out.'],
};
const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

/** How long a connection answered 408 may take to read the answer before it is destroyed. */
const TIMEOUT_ANSWER_GRACE_MS = 1000;

/**
 * Node answers HTTP parse errors (malformed request line or headers, headers too large)
 * itself, before Express, with an empty body. This answers them with the error envelope
 * when the socket still allows it, and closes the connection. A request whose body is still
 * arriving at HTTP_REQUEST_TIMEOUT_MS (its response exists, nothing sent yet) gets the 408
 * envelope through that response; the body parser waiting on it then sees the connection
 * end (docs/reliability.md, "Timeouts").
 */
export function installClientErrorHandler(
  server: Server,
  now: () => Date = () => new Date(),
): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    // A reset or a socket with a response under way cannot take an answer.
    const busy = (socket as Socket & { _httpMessage?: unknown })._httpMessage;
    const [status, code, message] = CLIENT_ERRORS[err.code ?? ''] ?? [
      400,
      'BAD_REQUEST',
      'Malformed HTTP request.',
    ];
    const body = JSON.stringify({
      success: false,
      error: { code, message },
      meta: { timestamp: now().toISOString() },
    });
    if (
      err.code === 'ERR_HTTP_REQUEST_TIMEOUT' &&
      busy instanceof ServerResponse &&
      !busy.headersSent &&
      socket.writable
    ) {
      return answerTimeout(busy, socket, status, body);
    }
    if (err.code === 'ECONNRESET' || !socket.writable || busy) {
      socket.destroy();
      return;
    }
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_TEXT[status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  });
}

/**
 * The 408 envelope through the response of a request whose body is still arriving; the
 * socket is destroyed after TIMEOUT_ANSWER_GRACE_MS.
 */
function answerTimeout(res: ServerResponse, socket: Socket, status: number, body: string): void {
  res.shouldKeepAlive = false;
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    Connection: 'close',
  });
  res.end(body);
  setTimeout(() => socket.destroy(), TIMEOUT_ANSWER_GRACE_MS).unref();
}
