import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import { APP_CONFIG, AppConfig, ApiError } from '@app/core';

/**
 * Admin routes: `Authorization: Bearer <ADMIN_TOKEN>`, compared in constant time (both
 * sides hashed to equal length first). Without ADMIN_TOKEN the module answers 404.
 * Customer API keys are never accepted here.
 */
@Injectable()
export class AdminGuard implements CanActivate {
  private readonly expected: Buffer | null;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.expected = config.adminToken ? digest(config.adminToken) : null;
  }

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<Request>();
    if (!this.expected) {
      throw new ApiError('NOT_FOUND', `Unknown endpoint: ${req.method} ${req.path}`);
    }
    const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(req.headers.authorization ?? '');
    if (!m || !timingSafeEqual(digest(m[1]), this.expected)) {
      throw new ApiError('UNAUTHORIZED', 'Missing or invalid admin token.');
    }
    return true;
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
