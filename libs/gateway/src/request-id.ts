import { randomUUID } from 'node:crypto';
import type { Response } from 'express';
import { ApiRequest } from './request-context';

const SAFE_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/**
 * Gives the request its id: the caller's X-Request-Id when it is a sane token, else a new
 * UUID. Echoed in the X-Request-Id response header and in meta.request_id. Called first by
 * the request-lifecycle middleware (access-log.ts).
 */
export function assignRequestId(req: ApiRequest, res: Response): void {
  const incoming = req.headers['x-request-id'];
  req.id = typeof incoming === 'string' && SAFE_ID.test(incoming) ? incoming : randomUUID();
  res.setHeader('X-Request-Id', req.id);
}
