import { Body, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { SessionContext } from '@app/accounts';
import { ParseIdPipe } from '@app/gateway';
import { AccountAreaController } from '../session/account-area.decorator';
import { CurrentSession } from '../session/session.decorator';
import { AddGscPropertyDto } from './dto/gsc-property.dto';
import { GscConnectService } from './gsc-connect.service';

/**
 * Search Console in the account area (/account/v1/gsc, docs/gsc-connect.md): the account's
 * Google connections with their sites, its properties, adding a site (plan limit
 * `gsc_properties`, 402 past it), removing a property with its facts, disconnecting (revoked
 * at Google) and, without a Google client, sandbox properties. Another account's connection
 * or property is 404 NOT_FOUND.
 */
@AccountAreaController()
export class AccountGscController {
  constructor(private readonly gsc: GscConnectService) {}

  @Get('gsc/connections')
  @ApiOperation({
    summary: 'Google connections with their sites (and the property of each added one)',
  })
  connections(@CurrentSession() session: SessionContext) {
    return this.gsc.connections(session.accountId);
  }

  @Delete('gsc/connections/:connection_id')
  @ApiOperation({
    summary:
      'Disconnect: revokes the grant at Google, stops syncing; the data stays until its property is removed',
  })
  disconnect(
    @CurrentSession() session: SessionContext,
    @Param('connection_id', ParseIdPipe) id: number,
  ) {
    return this.gsc.disconnect(session.accountId, id);
  }

  @Get('gsc/properties')
  @ApiOperation({ summary: 'The account’s properties with their sync and backfill progress' })
  properties(@CurrentSession() session: SessionContext) {
    return this.gsc.properties(session.accountId);
  }

  @Post('gsc/properties')
  @HttpCode(201)
  @ApiOperation({
    summary:
      'Add a site of a connection as a property (starts syncing; plan limit gsc_properties, 402 past it)',
  })
  add(@CurrentSession() session: SessionContext, @Body() body: AddGscPropertyDto) {
    return this.gsc.addProperty(session.accountId, body);
  }

  @Post('gsc/sandbox-properties')
  @HttpCode(201)
  @ApiOperation({
    summary:
      'Without a Google client: add a sandbox property synced from generated data (plan limit gsc_properties)',
  })
  addSandbox(@CurrentSession() session: SessionContext) {
    return this.gsc.addSandboxProperty(session.accountId);
  }

  @Delete('gsc/properties/:property_id')
  @ApiOperation({ summary: 'Remove a property and its facts' })
  remove(@CurrentSession() session: SessionContext, @Param('property_id', ParseIdPipe) id: number) {
    return this.gsc.removeProperty(session.accountId, id);
  }
}
