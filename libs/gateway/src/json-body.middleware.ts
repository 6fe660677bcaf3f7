import type { IncomingMessage } from 'node:http';
import { Router } from 'express';
import type { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response } from 'express';
import { ApiError } from '@app/core';

/** The media types read as JSON: application/json and any application/<name>+json. */
export const JSON_MEDIA_TYPES = ['application/json', 'application/*+json'];

const JSON_MEDIA_TYPE = /^application\/(?:json|[a-z0-9!#$&^_.+-]+\+json)$/;

/** The message of the 415: what to send instead. */
export const SEND_JSON = 'Send the body as JSON with Content-Type: application/json.';

/**
 * A JSON body parser's `type` option: JSON media types (application/json and
 * application/<name>+json, as JSON_MEDIA_TYPES) of the requests `accept` takes. Lets each
 * parser have its own size limit by route (app.setup.ts); a request no parser takes keeps
 * its body unread.
 */
export function jsonBodyOf(accept: (req: Request) => boolean): (req: IncomingMessage) => boolean {
  return (req) =>
    isJsonMediaType(mediaTypeOf(req.headers['content-type'])) && accept(req as Request);
}

/** True when the request carries a body (a positive Content-Length, or chunked). */
function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  if (length !== undefined) return Number(length) > 0;
  return req.headers['transfer-encoding'] !== undefined;
}

/** The media type of a Content-Type header (lower-case, without parameters), or '' when absent. */
export function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0].trim().toLowerCase();
}

/** True for application/json and application/<name>+json (any charset parameter: the body parser judges it). */
export function isJsonMediaType(mediaType: string): boolean {
  return JSON_MEDIA_TYPE.test(mediaType);
}

/**
 * Express middleware, registered before the JSON body parser: on the JSON APIs (`paths`:
 * /api/v1, /account/v1, /admin/v1) a request whose body is not JSON (a form, multipart,
 * plain text, no Content-Type at all) answers 415 UNSUPPORTED_MEDIA_TYPE "Send the body as
 * JSON…" before any guard, pipe or handler, instead of reaching validation as an empty
 * object. Like the body parser's own refusals it is not counted on the monthly meter and
 * charges nothing. Requests without a body pass. The account area relies on it too: a
 * cross-site page can post a form or text/plain without a preflight, never JSON.
 */
export function jsonBodiesOnly(paths: RegExp) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    if (!hasBody(req) || !paths.test(req.path)) return next();
    const header = req.headers['content-type'];
    const type = mediaTypeOf(header);
    if (isJsonMediaType(type)) return next();
    const shown = (type || (header ?? '').trim()).slice(0, 100);
    const sent = shown
      ? `Content-Type "${shown}" is not accepted`
      : 'The request has a body but no Content-Type';
    next(new ApiError('UNSUPPORTED_MEDIA_TYPE', `${sent}. ${SEND_JSON}`));
  };
}

/**
 * The body stage as one Express layer. `handlers` (the JSON-only check, the body parsers, the
 * body bounds and their error answers) run in a router of their own, entered only by a
 * request that announces a body: a Content-Length (even 0) or a Transfer-Encoding, the body
 * parser's own test. A request without one (every GET) passes in one step instead of walking
 * each of their layers; none of them would have done anything for it.
 */
export function bodyStage(
  ...handlers: Array<RequestHandler | ErrorRequestHandler>
): RequestHandler {
  const stage = Router();
  stage.use(...handlers);
  return (req, res, next) =>
    req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined
      ? stage(req, res, next)
      : next();
}
