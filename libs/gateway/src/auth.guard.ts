import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiError, bearerToken } from '@app/core';
import { ApiKeysService, AuthContext } from '@app/accounts';
import { Public } from './decorators';
import { ApiRequest, INTERNAL_CALLER } from './request-context';

const MAX_KEY_LENGTH = 256;

/**
 * Global and secure by default: every route needs an API key unless marked @Public().
 * The key comes as `Authorization: Bearer <key>` or, discouraged, `?api_key=<key>`.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly keys: ApiKeysService,
  ) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    if (this.reflector.getAllAndOverride(Public, [context.getHandler(), context.getClass()]))
      return true;
    const req = context.switchToHttp().getRequest<ApiRequest>();
    const internal = req[INTERNAL_CALLER];
    if (internal) return this.admit(req, internal); // in-process call of the hosted MCP endpoint
    const secret = extractKey(req);
    if (!secret) {
      throw new ApiError(
        'UNAUTHORIZED',
        'Missing API key. Send it as "Authorization: Bearer <API_KEY>".',
      );
    }
    if (secret.length > MAX_KEY_LENGTH) return this.admit(req, null);
    // Hashed once; a cache hit stays synchronous, a miss looks the hash up in PostgreSQL.
    const hash = this.keys.hashOf(secret);
    if (hash === null) return this.admit(req, null);
    const known = this.keys.cached(hash);
    if (known !== undefined) return this.admit(req, known);
    return this.keys.lookup(hash).then((auth) => this.admit(req, auth));
  }

  private admit(req: ApiRequest, auth: AuthContext | null): boolean {
    if (!auth) throw new ApiError('UNAUTHORIZED', 'Invalid or revoked API key.');
    req.auth = auth;
    return true;
  }
}

/** The key from the Authorization header, else from the api_key query parameter. */
export function extractKey(req: ApiRequest): string | null {
  const header = req.headers.authorization;
  if (typeof header === 'string' && header.length > 0) {
    return bearerToken(header) ?? '';
  }
  const q = req.query?.api_key;
  return typeof q === 'string' && q.length > 0 ? q : null;
}
