import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '@app/gateway';
import { OAUTH_SETTINGS, OAuthSettings } from '@app/oauth';

/**
 * Discovery: RFC 9728 protected-resource metadata (BASE/mcp) and RFC 8414
 * authorization-server metadata, at the contract's fixed paths; public, cacheable, CORS
 * (the API's permissive CORS applies to /.well-known).
 */
@ApiExcludeController()
@Public()
@Controller('.well-known')
export class OAuthDiscoveryController {
  constructor(@Inject(OAUTH_SETTINGS) private readonly settings: OAuthSettings) {}

  @Get(['oauth-protected-resource/mcp', 'oauth-protected-resource'])
  protectedResource(@Res() res: Response): void {
    this.send(res, {
      resource: this.settings.resource,
      authorization_servers: [this.settings.issuer],
      scopes_supported: [...this.settings.scopes],
      bearer_methods_supported: ['header'],
      resource_name: 'SEO data API (hosted MCP connector)',
      resource_documentation: `${this.settings.issuer}/docs`,
    });
  }

  @Get('oauth-authorization-server')
  authorizationServer(@Res() res: Response): void {
    const base = this.settings.issuer;
    this.send(res, {
      issuer: base,
      authorization_endpoint: `${base}/oauth/authorize`,
      token_endpoint: `${base}/token`,
      registration_endpoint: `${base}/register`,
      revocation_endpoint: `${base}/revoke`,
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
      revocation_endpoint_auth_methods_supported: ['none'],
      scopes_supported: [...this.settings.scopes],
      authorization_response_iss_parameter_supported: true,
      client_id_metadata_document_supported: true,
      service_documentation: `${base}/docs`,
    });
  }

  private send(res: Response, body: Record<string, unknown>): void {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.status(200).json(body);
  }
}
