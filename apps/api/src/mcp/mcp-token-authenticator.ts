import type { AuthContext } from '@app/accounts';

/** Who is calling /mcp: the auth context the tool calls run with (keyLabel = the connection's client name). */
export interface McpCaller {
  auth: AuthContext;
  /** The OAuth grant behind the token, when the bearer was an access token. */
  grantId?: number;
  /** The scopes of the access token; undefined for an API key (every tool). */
  scopes?: readonly string[];
}

/**
 * Resolves a bearer on /mcp that is not an API key (an OAuth access token). McpModule binds
 * it to OAuthTokenAuthenticator (oauth-token-authenticator.ts, beside this file), which
 * accepts access tokens issued for BASE/mcp.
 */
export abstract class McpTokenAuthenticator {
  abstract authenticate(token: string): Promise<McpCaller | null>;
}
