import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { APP_CONFIG, AppConfig, ApiError } from '@app/core';

const STATE_CHANGING = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);
/** The paths a browser session can act on: the account area and the OAuth endpoints. */
/** Case-insensitive, as Express routing is. */
const GUARDED_PATH = /^\/(account|oauth)(\/|$)/i;

/** True for /account, /account/..., /oauth and /oauth/... (not /accounts or /api/v1/...). */
function isSessionArea(path: string): boolean {
  return GUARDED_PATH.test(path);
}

function originOf(value: string): string | null {
  try {
    const origin = new URL(value).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

/**
 * Cross-site requests cannot act for a signed-in user: a state-changing request (POST,
 * PATCH, PUT, DELETE) under /account or /oauth whose `Origin` is present and is not the
 * service's own origin, or whose `Sec-Fetch-Site` is `cross-site`, gets 403 FORBIDDEN
 * before the handler runs (nothing changes). The own origin is PUBLIC_BASE_URL's, and the
 * origin the request itself was addressed to (its Host, on the protocol it arrived on),
 * which a cross-site page cannot choose. Registered globally by AccountAreaModule, so it
 * covers every such route whatever its controller; GET, HEAD and OPTIONS pass.
 */
@Injectable()
export class SameOriginGuard implements CanActivate {
  private readonly ownOrigin: string | null;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.ownOrigin = originOf(config.publicBaseUrl);
  }

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const req = context.switchToHttp().getRequest<Request>();
    if (!STATE_CHANGING.has(req.method) || !isSessionArea(req.path)) return true;

    const fetchSite = req.headers['sec-fetch-site'];
    if (typeof fetchSite === 'string' && fetchSite.trim().toLowerCase() === 'cross-site') {
      throw refused();
    }
    const origin = req.headers.origin;
    if (origin === undefined) return true;
    const claimed = originOf(origin);
    if (claimed && (claimed === this.ownOrigin || claimed === this.requestOrigin(req))) {
      return true;
    }
    throw refused();
  }

  private requestOrigin(req: Request): string | null {
    const host = req.headers.host;
    return host ? originOf(`${req.protocol}://${host}`) : null;
  }
}

function refused(): ApiError {
  return new ApiError(
    'FORBIDDEN',
    'Cross-site request refused: the account area acts only on requests from its own pages.',
  );
}
