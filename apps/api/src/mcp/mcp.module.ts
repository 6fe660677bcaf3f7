import { Module } from '@nestjs/common';
import { AccountsModule } from '@app/accounts';
import { McpHttpController } from './mcp-http.controller';
import { McpTokenAuthenticator } from './mcp-token-authenticator';
import { OAuthModule } from '../oauth/oauth.module';
import { OAuthTokenAuthenticator } from './oauth-token-authenticator';

/**
 * The hosted MCP endpoint (/mcp). Bearers that are not API keys go to McpTokenAuthenticator:
 * OAuthTokenAuthenticator, which checks the access tokens of our authorization server through
 * the OAuth library (@app/oauth). The dependency runs one way: mcp/ → oauth/ (its module and
 * its scopes); oauth/ imports nothing of mcp/.
 */
@Module({
  imports: [AccountsModule, OAuthModule],
  controllers: [McpHttpController],
  providers: [
    OAuthTokenAuthenticator,
    { provide: McpTokenAuthenticator, useExisting: OAuthTokenAuthenticator },
  ],
  exports: [McpTokenAuthenticator],
})
export class McpModule {}
