import { Injectable } from '@nestjs/common';
import { OAuthGrantsService } from '@app/oauth';
import { McpCaller, McpTokenAuthenticator } from './mcp-token-authenticator';

/**
 * Bearer tokens on /mcp that are not API keys: OAuth access tokens issued by our
 * authorization server for BASE/mcp. Checked in PostgreSQL on every call (token unexpired
 * and unrevoked, grant unrevoked, user still there; the account's CURRENT plan), so a
 * revocation, a removed user or a downgrade holds at once on every instance. keyLabel is
 * the connection's client name.
 */
@Injectable()
export class OAuthTokenAuthenticator extends McpTokenAuthenticator {
  constructor(private readonly grants: OAuthGrantsService) {
    super();
  }

  async authenticate(token: string): Promise<McpCaller | null> {
    const caller = await this.grants.authenticate(token);
    return caller ? { auth: caller.auth, grantId: caller.grantId, scopes: caller.scopes } : null;
  }
}
