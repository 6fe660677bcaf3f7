import * as http from 'node:http';
import { INestApplication, NestApplicationOptions, StreamableFile } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Application, RequestHandler, Response } from 'express';
import {
  ApiError,
  Clock,
  EnvelopeMeta,
  ErrorEnvelope,
  SuccessEnvelope,
  SystemClock,
  TopLevelBody,
  TopLevelEnvelope,
  WithMeta,
  codeOfStatus,
  isoTimestamp,
  serializeJsonPlaced,
} from '@app/core';
import { COMPRESS_MIN_BYTES, placeKept, varyOnEncoding } from './compression';
import { ApiRequest } from './request-context';
import { ApiWarning, warningsOf } from './input-warnings';

function baseMeta(requestId: string | undefined, now: Date): EnvelopeMeta {
  return { timestamp: isoTimestamp(now), request_id: requestId };
}

/**
 * Builds `{success, data, meta}` from what a handler returned: plain data, `withMeta(data,
 * meta)` for extra meta members, or a TopLevelBody (the 202 job acceptance). Strings,
 * buffers and files pass through untouched (HTML pages use @Res() anyway).
 */
export function toEnvelope(
  result: unknown,
  requestId: string | undefined,
  now: Date,
  warnings?: ApiWarning[],
): SuccessEnvelope | TopLevelEnvelope | string | Buffer | StreamableFile {
  if (typeof result === 'string' || Buffer.isBuffer(result) || result instanceof StreamableFile)
    return result;
  const meta = baseMeta(requestId, now);
  if (result instanceof TopLevelBody)
    return {
      success: true,
      ...result.body,
      meta: withWarnings({ ...meta, ...result.meta }, warnings),
    };
  if (result instanceof WithMeta)
    return {
      success: true,
      data: result.data,
      meta: withWarnings({ ...meta, ...result.meta }, warnings),
    };
  return { success: true, data: result ?? {}, meta: withWarnings(meta, warnings) };
}

/**
 * meta with `warnings` last: the request's (unknown parameters and fields) before the
 * handler's own (values that fell back); absent when there are none.
 */
function withWarnings(meta: EnvelopeMeta, fromRequest: ApiWarning[] | undefined): EnvelopeMeta {
  const own = meta.warnings as ApiWarning[] | undefined;
  if (!fromRequest?.length) return own?.length ? meta : dropWarnings(meta);
  const { warnings: _own, ...rest } = meta;
  return { ...rest, warnings: own?.length ? [...fromRequest, ...own] : fromRequest };
}

function dropWarnings(meta: EnvelopeMeta): EnvelopeMeta {
  if (!('warnings' in meta)) return meta;
  const { warnings: _none, ...rest } = meta;
  return rest;
}

/** The error envelope of an ApiError (the exception filter's answer). */
export function errorEnvelope(
  error: ApiError,
  requestId: string | undefined,
  now: Date,
): ErrorEnvelope {
  return {
    success: false,
    error: {
      code: error.code,
      message: error.message,
      ...(error.details !== undefined ? { details: error.details } : {}),
    },
    meta: { ...baseMeta(requestId, now), ...(error.meta ?? {}) },
  };
}

function isErrorEnvelope(body: unknown): body is ErrorEnvelope {
  return typeof body === 'object' && body !== null && (body as ErrorEnvelope).success === false;
}

/**
 * An error answer that did not come through our exception filter (Nest's base filter
 * writes `{statusCode, message}` through the adapter): turned into the error envelope,
 * never `success: true`. Messages of 5xx answers are not passed on.
 */
export function toErrorEnvelope(
  body: unknown,
  status: number,
  requestId: string | undefined,
  now: Date,
): ErrorEnvelope {
  if (isErrorEnvelope(body)) return body;
  const code = codeOfStatus(status);
  const given = (body as { message?: unknown } | null)?.message;
  const message =
    status >= 500
      ? 'Internal error. It is safe to retry.'
      : typeof given === 'string' && given.length > 0
        ? given
        : 'The request could not be processed.';
  return errorEnvelope(new ApiError(code, message), requestId, now);
}

/**
 * platform-express with the envelope applied where Nest writes a handler's result, the one
 * place every route's answer passes. This does what a global interceptor would, without the
 * rxjs chain and AsyncResource Nest 11 wraps around every interceptor call (about 40% of a
 * trivial route's throughput; docs/decisions/0001-envelope-and-metering-without-interceptors.md). Only statuses
 * below 400 are wrapped as success; an error that reaches Nest's base filter instead of
 * ours still leaves as an error envelope. The exception filter writes its own envelope.
 */
export class EnvelopeExpressAdapter extends ExpressAdapter {
  private clock: Clock = new SystemClock();
  private readonly lateMounts: Array<() => void> = [];
  private routesRegistered = false;

  /**
   * Mounts what no API request needs (the operator pages) behind Nest's routes, just in front
   * of its not-found handler, so a request that a route answers never walks their layers.
   * Nest registers the not-found handler right after the routes (`app.init()`); once it has,
   * `mount` runs at once.
   */
  afterRoutes(mount: () => void): void {
    if (this.routesRegistered) mount();
    else this.lateMounts.push(mount);
  }

  override setNotFoundHandler(handler: RequestHandler, prefix?: string): unknown {
    this.routesRegistered = true;
    for (const mount of this.lateMounts.splice(0)) mount();
    return super.setNotFoundHandler(handler, prefix);
  }

  /**
   * The HTTP server, made to create each request and response with express's prototypes
   * already in place. Express otherwise swaps the prototype of both objects on every request
   * (`Object.setPrototypeOf(req, app.request)`), which makes V8 give them new hidden classes,
   * so the property reads of every layer after it miss their inline caches and take the
   * runtime's slow lookup (docs/performance.md, "Express's prototype swap"). With the
   * prototypes already right, express's swap changes nothing. HTTPS is left to Nest.
   */
  override initHttpServer(options: NestApplicationOptions): void {
    if (options?.httpsOptions || options?.forceCloseConnections)
      return super.initHttpServer(options);
    // express keeps the prototypes of its requests and responses as app.request, app.response.
    const app = this.getInstance<Application & { request: object; response: object }>();
    const IncomingMessage = madeWith(http.IncomingMessage, app.request);
    const ServerResponse = madeWith(http.ServerResponse, app.response);
    if (!IncomingMessage || !ServerResponse) return super.initHttpServer(options);
    this.httpServer = http.createServer({ IncomingMessage, ServerResponse }, app);
  }

  /** The application's Clock (tests inject a ManualClock). */
  useClock(clock: Clock): this {
    this.clock = clock;
    return this;
  }

  override reply(response: Response, body: unknown, statusCode?: number): unknown {
    const req = response.req as ApiRequest | undefined;
    const status = statusCode ?? response.statusCode;
    const now = this.clock.now();
    const envelope =
      status < 400
        ? toEnvelope(body, req?.id, now, warningsOf(req))
        : toErrorEnvelope(body, status, req?.id, now);
    if (
      typeof envelope === 'string' ||
      Buffer.isBuffer(envelope) ||
      envelope instanceof StreamableFile
    )
      return super.reply(response, envelope, statusCode);
    if (statusCode) response.status(statusCode);
    // 204 and 304 carry no body: express strips it and its headers.
    if (response.statusCode === 204 || response.statusCode === 304)
      return super.reply(response, envelope, statusCode);
    return endJson(response, envelope);
  }
}

/**
 * A constructor for Node's HTTP server that builds what `base` builds (an IncomingMessage or
 * a ServerResponse) with `prototype` (express's request or response, which inherits from
 * `base.prototype`) as its prototype from the start; null when `base` is a class, which
 * cannot be called on an object of ours (Node's two are plain constructor functions).
 */
function madeWith<T extends typeof http.IncomingMessage | typeof http.ServerResponse>(
  base: T,
  prototype: object,
): T | null {
  if (/^class\b/.test(Function.prototype.toString.call(base))) return null;
  const init = base as unknown as (this: object, first: unknown, second: unknown) => void;
  function Made(this: object, first: unknown, second: unknown) {
    init.call(this, first, second);
  }
  Made.prototype = prototype;
  return Made as unknown as T;
}

/** The app's EnvelopeExpressAdapter; an app created with any other adapter is refused. */
export function envelopeAdapterOf(app: INestApplication): EnvelopeExpressAdapter {
  const adapter = app.getHttpAdapter();
  if (!(adapter instanceof EnvelopeExpressAdapter)) {
    throw new Error(
      'The API must be created with EnvelopeExpressAdapter (it writes the success envelope)',
    );
  }
  return adapter;
}

/**
 * Ends `response` with `value` as JSON: what express's res.json() + res.send() write for our
 * bodies (no ETag, so never a 304; Node drops the body of a HEAD answer), without their
 * content-type parsing, with RawJson members (pre-rendered JSON text) placed as they are.
 * An answer that could be compressed varies by Accept-Encoding, asked or not (the
 * compressing res.end, libs/gateway/src/compression.ts, is only there when asked). The
 * success envelope and the exception filter's error envelope both leave through here.
 */
export function endJson(response: Response, value: unknown): Response {
  const { bytes, raw, at } = serializeJsonPlaced(value);
  if (!response.hasHeader('Content-Type'))
    response.setHeader('Content-Type', 'application/json; charset=utf-8');
  response.setHeader('Content-Length', bytes.length);
  if (bytes.length >= COMPRESS_MIN_BYTES) {
    varyOnEncoding(response);
    if (raw) placeKept(response, bytes, raw, at);
  }
  return response.end(bytes);
}
