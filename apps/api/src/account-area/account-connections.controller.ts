import { Delete, Get, Param } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ApiError } from '@app/core';
import { SessionContext } from '@app/accounts';
import { ParseIdPipe } from '@app/gateway';
import { ConnectionView, OAuthGrantsService } from '@app/oauth';
import { AccountAreaController } from '../session/account-area.decorator';
import { CurrentSession } from '../session/session.decorator';

export type { ConnectionView } from '@app/oauth';

/**
 * Connected apps: /account/v1/connections, the account's active OAuth grants of the hosted
 * MCP connector. Revoking one ends its tokens at once on every instance (they are checked
 * in PostgreSQL on every /mcp call); another account's grant is 404 NOT_FOUND.
 */
@AccountAreaController()
export class AccountConnectionsController {
  constructor(private readonly grants: OAuthGrantsService) {}

  @Get('connections')
  @ApiOperation({ summary: 'Connected apps (hosted MCP grants), newest first' })
  list(@CurrentSession() session: SessionContext): Promise<ConnectionView[]> {
    return this.grants.connections(session.accountId);
  }

  @Delete('connections/:id')
  @ApiOperation({ summary: 'Revoke a connected app’s grant (its tokens stop at once)' })
  async revoke(
    @CurrentSession() session: SessionContext,
    @Param('id', ParseIdPipe) id: number,
  ): Promise<ConnectionView> {
    const revoked = await this.grants.revokeConnection(session.accountId, id);
    if (!revoked) throw ApiError.notFound('Connection');
    return revoked;
  }
}
