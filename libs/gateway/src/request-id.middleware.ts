import { randomUUID } from 'node:crypto';
import type { NextFunction, Response } from 'express';
import { ApiRequest } from './request-context';

const SAFE_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/**
 * Gives every request an id: the caller's X-Request-Id when it is a sane token, else a new
 * UUID. Echoed in the X-Request-Id response header and in meta.request_id.
 */
export function requestIdMiddleware(req: ApiRequest, res: Response, next: NextFunction): void {
  const incoming = req.headers['x-request-id'];
  req.id = typeof incoming === 'string' && SAFE_ID.test(incoming) ? incoming : randomUUID();
  res.setHeader('X-Request-Id', req.id);
  next();
}
