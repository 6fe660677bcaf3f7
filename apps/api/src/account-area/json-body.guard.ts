import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { ApiError } from '@app/core';

/** The JSON API of the account area (pages post forms; the API takes JSON only). */
const JSON_API_PATH = /^\/account\/v1(\/|$)/i;

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  if (length !== undefined) return Number(length) > 0;
  return req.headers['transfer-encoding'] !== undefined;
}

/**
 * The account JSON API accepts only `application/json` bodies: any other body (a form, plain
 * text, which a cross-site page could send without a preflight) is 415
 * UNSUPPORTED_MEDIA_TYPE before the handler runs. Requests without a body pass.
 */
@Injectable()
export class JsonBodyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const req = context.switchToHttp().getRequest<Request>();
    if (!JSON_API_PATH.test(req.path) || !hasBody(req)) return true;
    const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (type === 'application/json') return true;
    throw new ApiError(
      'UNSUPPORTED_MEDIA_TYPE',
      'The request body must be JSON (Content-Type: application/json).',
    );
  }
}
