import { Body, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ApiError } from '@app/core';
import { ApiKeysService, SessionContext, newKeyView, ownKeyView } from '@app/accounts';
import { ParseIdPipe } from '@app/gateway';
import { AccountAreaController } from '../session/account-area.decorator';
import { CurrentSession } from '../session/session.decorator';
import { CreateOwnApiKeyDto } from './dto/api-key.dto';

/**
 * The signed-in account's API keys: /account/v1/api-keys. The same keys as the admin API's
 * (ApiKeysService); the rules (Pro or Agency, at most 25 active) are in the service.
 */
@AccountAreaController()
export class AccountKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Get('api-keys')
  @ApiOperation({ summary: 'The account’s keys, newest first, without secrets' })
  async list(@CurrentSession() session: SessionContext) {
    return (await this.keys.list(session.accountId, true)).map(ownKeyView);
  }

  @Post('api-keys')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Create a key (Pro and Agency; at most 25 active); the secret is in this answer only',
  })
  async create(@CurrentSession() session: SessionContext, @Body() body: CreateOwnApiKeyDto) {
    return newKeyView(await this.keys.createOwn(session.accountId, body.label));
  }

  @Delete('api-keys/:id')
  @ApiOperation({ summary: 'Revoke a key: it stops working on every API instance within 1 s' })
  async revoke(@CurrentSession() session: SessionContext, @Param('id', ParseIdPipe) id: number) {
    const key = await this.keys.revoke(id, session.accountId);
    if (!key) throw ApiError.notFound('API key');
    return ownKeyView(key);
  }
}
