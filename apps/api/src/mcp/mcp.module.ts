import { Module } from '@nestjs/common';
import { AccountsModule } from '@app/accounts';
import { McpHttpController } from './mcp-http.controller';
import { McpTokenAuthenticator } from './mcp-token-authenticator';
import { OAuthModule } from '../oauth/oauth.module';
import { OAuthTokenAuthenticator } from '../oauth/oauth-token-authenticator';

/**
 * The hosted MCP endpoint (/mcp). Bearers that are not API keys go to McpTokenAuthenticator:
 * the OAuth authorization server's access-token check (OAuthTokenAuthenticator).
 */
@Module({
  imports: [AccountsModule, OAuthModule],
  controllers: [McpHttpController],
  providers: [{ provide: McpTokenAuthenticator, useExisting: OAuthTokenAuthenticator }],
  exports: [McpTokenAuthenticator],
})
export class McpModule {}
