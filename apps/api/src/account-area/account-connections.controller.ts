import { Delete, Get, Param } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ApiError } from '@app/core';
import { ParseIdPipe } from '@app/gateway';
import { AccountAreaController } from './account-area.decorator';

/** A connected app (hosted MCP grant), as the account area will show it. */
export interface ConnectionView {
  id: number;
  client_name: string;
  client_id: string;
  scopes: string[];
  created_at: string;
  last_used_at: string | null;
}

/**
 * Connected apps: /account/v1/connections. PLACEHOLDER until the hosted MCP connector
 * (OAuth 2.1 grants) lands: there are no grants yet, so the list is empty and revoking any
 * id is 404 NOT_FOUND. The paths and the record shape are the contract's.
 */
@AccountAreaController()
export class AccountConnectionsController {
  @Get('connections')
  @ApiOperation({ summary: 'Connected apps (hosted MCP grants); none until OAuth lands' })
  list(): ConnectionView[] {
    return [];
  }

  @Delete('connections/:id')
  @ApiOperation({ summary: 'Revoke a connected app’s grant' })
  revoke(@Param('id', ParseIdPipe) id: number): never {
    void id;
    throw ApiError.notFound('Connection');
  }
}
