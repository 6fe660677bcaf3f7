import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import { APP_CONFIG, AppConfig, ApiError, bearerToken } from '@app/core';
import { redactUrl } from '@app/logging';
import { AdminAuthThrottle } from '@app/redis';

/**
 * Admin routes: `Authorization: Bearer <ADMIN_TOKEN>`, compared in constant time (both
 * sides hashed to equal length first). Without ADMIN_TOKEN the module answers 404.
 * Customer API keys are never accepted here. Failed authentications are throttled per
 * client IP (AdminAuthThrottle): 401 for the first 20 within the window, then 429 for every
 * request from that IP until the window ends.
 */
@Injectable()
export class AdminGuard implements CanActivate {
  private readonly configured: boolean;
  private readonly carriesToken: (authorization: string | undefined) => boolean;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly throttle: AdminAuthThrottle,
  ) {
    this.configured = Boolean(config.adminToken);
    this.carriesToken = adminTokenCheck(config.adminToken);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<Request>();
    if (!this.configured) {
      throw new ApiError('NOT_FOUND', `Unknown endpoint: ${req.method} ${redactUrl(req.path)}`);
    }
    const ok = this.carriesToken(req.headers.authorization);
    await this.throttle.checkOrThrow(req.ip ?? '', !ok);
    if (!ok) throw new ApiError('UNAUTHORIZED', 'Missing or invalid admin token.');
    return true;
  }
}

/**
 * Whether an Authorization header is `Bearer <ADMIN_TOKEN>`, compared in constant time (both
 * sides hashed to equal length first); always false without ADMIN_TOKEN. The guard's check,
 * also used before the body parser (app.setup.ts: an admin request without the token is
 * refused by the guard, so its body is never parsed).
 */
export function adminTokenCheck(
  adminToken: string | undefined,
): (authorization: string | undefined) => boolean {
  const expected = adminToken ? digest(adminToken) : null;
  return (authorization) => {
    if (!expected) return false;
    const token = bearerToken(authorization);
    return token !== null && timingSafeEqual(digest(token), expected);
  };
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
