import { randomUUID } from 'node:crypto';
import { CanActivate, ExecutionContext, Inject, Injectable, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { APP_CONFIG, AppConfig, ApiError, Clock } from '@app/core';
import { IdempotencyKeysRepository, IdempotencyRecord, IdempotencyRequest } from '@app/database';
import { IdempotentReplay, REPLAYED_HEADERS, idempotencyKeyOf, requestHash } from './idempotency';
import { ApiRequest } from './request-context';

/** How long a kept answer is replayed. */
export const IDEMPOTENCY_RETENTION_MS = 24 * 3_600_000;
/** Claims of one request: a claim released or expired between two statements is tried again. */
const CLAIM_ATTEMPTS = 3;

/** Routes whose POSTs take an Idempotency-Key. */
const API_ROUTE = /^\/api\/v1\//i;

/**
 * `Idempotency-Key` on every POST under /api/v1 (docs/api.md): the guard after the monthly
 * meter, so a repeat is counted as a call (and refused at the monthly cap like any call), and
 * refusals before it (401, 403, 429) keep nothing. The first request of a key claims it in
 * PostgreSQL (one INSERT ... ON CONFLICT: of concurrent duplicates exactly one runs); its
 * answer is kept when it is written, if below 500 (validation errors of the handler's DTO
 * included); a 5xx gives the key up so a retry runs again. A repeat with the same route and
 * body gets the kept answer with `Idempotent-Replayed: true` and runs nothing; another route
 * or body is 422; while the first still runs, 409 ALREADY_RUNNING. A claim whose process died
 * lapses after its lease. No header: nothing of this runs.
 */
@Injectable()
export class IdempotencyGuard implements CanActivate {
  private readonly logger = new Logger('Idempotency');
  /** A running claim older than this is abandoned: longer than any handler may take. */
  readonly leaseMs: number;

  constructor(
    private readonly keys: IdempotencyKeysRepository,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    const upstream = config.dataforseo;
    this.leaseMs = 2 * (upstream.maxRetries + 1) * upstream.timeoutMs + 60_000;
  }

  /** Synchronous when there is nothing to do (every GET, a POST without the header). */
  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const http = context.switchToHttp();
    const req = http.getRequest<ApiRequest>();
    if (req.method !== 'POST' || !req.auth) return true;
    const template = req.route?.path;
    if (typeof template !== 'string' || !API_ROUTE.test(template)) return true;
    const key = idempotencyKeyOf(req);
    if (key === undefined) return true;
    return this.claimOrAnswer(
      {
        accountId: req.auth.accountId,
        key,
        route: `POST ${template}`,
        requestHash: requestHash(req),
      },
      http.getResponse<Response>(),
    );
  }

  /** Claims the key for this request (true), or throws what a repeat gets. */
  private async claimOrAnswer(request: IdempotencyRequest, res: Response): Promise<boolean> {
    for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
      const now = this.clock.now();
      const claim = randomUUID();
      const claimed = await this.keys.claim(
        request,
        claim,
        now,
        new Date(now.getTime() + this.leaseMs),
        new Date(now.getTime() + IDEMPOTENCY_RETENTION_MS),
      );
      if (claimed) {
        this.keepAnswer(res, request, claim);
        return true;
      }
      const found = await this.keys.find(request.accountId, request.key);
      // Released (a 5xx) or lapsed since the claim: claim again.
      if (!found || found.expiresAt <= now) continue;
      answerRepeat(request, found, now);
    }
    throw new ApiError(
      'ALREADY_RUNNING',
      'A request with this Idempotency-Key is changing state. Retry shortly.',
    );
  }

  /**
   * Wraps this response's write/end: the answer's bytes are collected and, before they are
   * sent, kept (below 500) or the claim is given up (5xx). Keeping first means a client that
   * has the answer always gets the same one on a retry.
   */
  private keepAnswer(res: Response, request: IdempotencyRequest, claim: string): void {
    const chunks: Buffer[] = [];
    const write = res.write;
    const end = res.end;
    let settled = false;
    // Own properties, as the in-process dispatch of the hosted MCP endpoint does.
    Object.assign(res, {
      write(this: Response, chunk: unknown, ...rest: unknown[]) {
        collectChunk(chunks, chunk, rest[0]);
        return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
      },
      end: (chunk?: unknown, ...rest: unknown[]) => {
        const send = () => (end as (...args: unknown[]) => Response).call(res, chunk, ...rest);
        if (settled) return send();
        settled = true;
        collectChunk(chunks, chunk, rest[0]);
        void this.settle(res, request, claim, chunks)
          .catch((err: unknown) =>
            this.logger.error({ err }, 'Could not keep or release an Idempotency-Key'),
          )
          .finally(send);
        return res;
      },
    });
  }

  /** The answer kept (below 500) or the claim given up (5xx), before the answer is sent. */
  private settle(
    res: Response,
    request: IdempotencyRequest,
    claim: string,
    chunks: Buffer[],
  ): Promise<unknown> {
    const status = res.statusCode;
    return status < 500
      ? this.keys.complete(request.accountId, request.key, claim, {
          status,
          headers: replayedHeaders(res),
          body: Buffer.concat(chunks),
        })
      : this.keys.release(request.accountId, request.key, claim);
  }
}

/**
 * What a repeat of a kept key gets (the key is `found`, not lapsed): 422 for another route
 * or body, 409 while the first still runs, else the kept answer (IdempotentReplay). Returns
 * only for an abandoned running claim (its lease ended), which is claimed again.
 */
function answerRepeat(request: IdempotencyRequest, found: IdempotencyRecord, now: Date): void {
  if (found.route !== request.route) {
    throw ApiError.validation(
      'Idempotency-Key',
      `This Idempotency-Key was used with another route (${found.route}) in the last 24 hours. Use a new key for a new request.`,
    );
  }
  if (found.requestHash !== request.requestHash) {
    throw ApiError.validation(
      'Idempotency-Key',
      'This Idempotency-Key was used with another request body in the last 24 hours. Use a new key for a new request.',
    );
  }
  if (found.state === 'running') {
    if (found.lockedUntil && found.lockedUntil <= now) return; // abandoned: take it over
    throw new ApiError(
      'ALREADY_RUNNING',
      'A request with this Idempotency-Key is still running. Retry shortly to get its answer; nothing is started twice.',
    );
  }
  throw new IdempotentReplay({
    status: found.status!,
    headers: found.headers ?? {},
    body: found.body!,
  });
}

/** A chunk given to write/end, as bytes (nothing for a callback or no chunk). */
function collectChunk(chunks: Buffer[], chunk: unknown, encoding: unknown): void {
  if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
  chunks.push(
    Buffer.isBuffer(chunk)
      ? chunk
      : chunk instanceof Uint8Array
        ? Buffer.from(chunk)
        : Buffer.from(
            String(chunk),
            typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8',
          ),
  );
}

function replayedHeaders(res: Response): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = res.getHeader(name);
    if (value !== undefined) headers[name] = String(value);
  }
  return headers;
}
