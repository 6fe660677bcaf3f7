import { Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@app/core';
import { AccountsModule } from '@app/accounts';
import { OAUTH_SETTINGS, OAuthLibraryModule, OAuthSettings } from '@app/oauth';
import { OAuthAuthorizeController } from './oauth-authorize.controller';
import { OAuthDiscoveryController } from './oauth-discovery.controller';
import { McpOAuthProvider } from './oauth-provider';
import { OAuthServerController } from './oauth-server.controller';
import { MCP_SCOPES } from './oauth-scopes';

/** issuer = PUBLIC_BASE_URL (no trailing slash); the one resource = BASE/mcp. */
function oauthSettings(config: AppConfig): OAuthSettings {
  const issuer = config.publicBaseUrl.replace(/\/+$/, '');
  return { issuer, resource: `${issuer}/mcp`, scopes: [...MCP_SCOPES] };
}

const OAuthLibrary = OAuthLibraryModule.register({
  provide: OAUTH_SETTINGS,
  useFactory: oauthSettings,
  inject: [APP_CONFIG],
});

/**
 * The hosted MCP connector's OAuth 2.1 authorization server (docs/oauth.md): discovery,
 * registration, authorization with sign-in and consent, token, revocation. Exports the
 * library: connections in the account area, and the access-token check of /mcp (whose
 * module owns that check; this folder imports nothing of /mcp).
 */
@Module({
  imports: [AccountsModule, OAuthLibrary],
  controllers: [OAuthDiscoveryController, OAuthAuthorizeController, OAuthServerController],
  providers: [McpOAuthProvider],
  exports: [OAuthLibrary],
})
export class OAuthModule {}
