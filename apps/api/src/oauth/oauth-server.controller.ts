import { All, Controller, Get, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, RequestHandler, Response } from 'express';
import { Public } from '@app/gateway';
import {
  MAX_REGISTRATION_BYTES,
  REDIRECT_URI_RULE,
  RegistrationThrottle,
  isAcceptableRedirectUri,
} from '@app/oauth';
import { clientRegistrationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/register.js';
import { revocationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/revoke.js';
import { tokenHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/token.js';
import { McpOAuthProvider } from './oauth-provider';
import { runSdkRouter } from './oauth-http';

/**
 * The client-facing OAuth endpoints, served by the MCP SDK's handlers on our provider:
 * POST /register (RFC 7591, public clients; rate-limited per IP in Redis), POST /token
 * (authorization_code with PKCE S256, refresh_token with rotation), POST /revoke (RFC 7009).
 * Form-encoded (register: JSON), RFC 6749 errors, CORS for browser-based clients.
 *
 * They sit at the root, outside /oauth, on purpose: /oauth is the cookie-authenticated area
 * (SameOriginGuard refuses cross-site writes, no CORS), and these endpoints read no cookie
 * and must answer clients of any origin. The root paths are also the defaults MCP clients of
 * the 2025-03-26 revision fall back to without metadata. GET /authorize (the same fallback)
 * redirects to /oauth/authorize.
 */
@ApiExcludeController()
@Public()
@Controller()
export class OAuthServerController {
  private readonly register: RequestHandler;
  private readonly token: RequestHandler;
  private readonly revoke: RequestHandler;

  constructor(
    provider: McpOAuthProvider,
    private readonly throttle: RegistrationThrottle,
  ) {
    // Rate limits: the SDK's in-memory limiter is per process; registration is limited in
    // Redis below, and token/revoke are bounded by what a client can guess (256-bit secrets).
    this.register = clientRegistrationHandler({
      clientsStore: provider.clientsStore,
      rateLimit: false,
      clientIdGeneration: false,
    });
    this.token = tokenHandler({ provider, rateLimit: false });
    this.revoke = revocationHandler({ provider, rateLimit: false });
  }

  @All('register')
  async registerClient(@Req() req: Request, @Res() res: Response): Promise<void> {
    if (req.method === 'POST') {
      const refused = await this.throttle.take(req.ip ?? 'unknown');
      if (refused !== null) {
        const wait = refused.retryAfterSeconds;
        res.setHeader('Access-Control-Allow-Origin', '*');
        res.setHeader('Retry-After', String(wait));
        res.status(429).json({
          error: 'too_many_requests',
          error_description:
            refused.scope === 'address'
              ? `Too many client registrations from this address; retry in ${wait} s.`
              : `Too many client registrations this hour; retry in ${wait} s.`,
        });
        return;
      }
      if (Buffer.byteLength(JSON.stringify(req.body ?? null)) > MAX_REGISTRATION_BYTES) {
        res.setHeader('Access-Control-Allow-Origin', '*');
        res.status(400).json({
          error: 'invalid_client_metadata',
          error_description: `The client metadata is larger than ${MAX_REGISTRATION_BYTES} bytes.`,
        });
        return;
      }
      const body = req.body as { redirect_uris?: unknown } | undefined;
      const uris = body && typeof body === 'object' ? body.redirect_uris : undefined;
      if (Array.isArray(uris) && !uris.every(isAcceptableRedirectUri)) {
        res.setHeader('Access-Control-Allow-Origin', '*');
        res.status(400).json({
          error: 'invalid_redirect_uri',
          error_description: REDIRECT_URI_RULE,
        });
        return;
      }
    }
    await runSdkRouter(this.register, req, res);
  }

  @Get('authorize')
  authorizeFallback(@Req() req: Request, @Res() res: Response): void {
    const query = req.url.includes('?') ? req.url.slice(req.url.indexOf('?')) : '';
    res.redirect(302, `/oauth/authorize${query}`);
  }

  @All('token')
  exchange(@Req() req: Request, @Res() res: Response): Promise<void> {
    return runSdkRouter(this.token, req, res);
  }

  @All('revoke')
  revokeToken(@Req() req: Request, @Res() res: Response): Promise<void> {
    return runSdkRouter(this.revoke, req, res);
  }
}
