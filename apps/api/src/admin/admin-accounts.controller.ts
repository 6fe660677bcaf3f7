import { Body, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ApiError, withMeta } from '@app/core';
import { AccountsService, ApiKeysService } from '@app/accounts';
import { CreditsService } from '@app/billing';
import { AccountEntity } from '@app/database';
import { ParseIdPipe, RequestId } from '@app/gateway';
import { UsageService } from '../usage/usage.service';
import { AdminController } from '../admin-routes/admin-route.decorator';
import { AdminAccountsService } from './admin-accounts.service';
import { found } from '../admin-routes/admin-http-status';
import { accountView, keyView, newKeyView } from './admin-accounts.mapper';
import {
  AccountListQueryDto,
  CreateAccountDto,
  CreateApiKeyDto,
  CreditsDto,
  UpdateAccountDto,
} from './dto/account.dto';

/** The record, or 404 NOT_FOUND naming `what` when there is none. */
@AdminController()
export class AdminAccountsController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly keys: ApiKeysService,
    private readonly credits: CreditsService,
    private readonly accountChanges: AdminAccountsService,
    private readonly usage: UsageService,
  ) {}

  @Post('accounts')
  @HttpCode(201)
  @ApiOperation({ summary: 'Create an account' })
  async create(@Body() body: CreateAccountDto) {
    return accountView(await this.accounts.create(body.name, body.plan));
  }

  @Get('accounts')
  @ApiOperation({
    summary:
      'Accounts, newest first: search by name or user e-mail (`q`, case-insensitive substring), ' +
      'one page at a time (`limit`, `offset`; `meta.total` counts all matches)',
  })
  async list(@Query() query: AccountListQueryDto) {
    const page = await this.accounts.search(query.q ?? null, query.limit, query.offset);
    const accounts = page.accounts.map((a) => ({ ...accountView(a), emails: a.emails }));
    return withMeta(
      { accounts, count: accounts.length },
      { total: page.total, limit: query.limit, offset: query.offset },
    );
  }

  @Get('accounts/:id')
  @ApiOperation({ summary: 'An account with the limits in force and what it has used' })
  async read(@Param('id', ParseIdPipe) id: number) {
    const account = await this.mustFind(id);
    return accountView(account, {
      limits: this.accounts.limitsOf(account),
      usage: await this.usage.usedBy(account),
    });
  }

  @Patch('accounts/:id')
  @ApiOperation({ summary: 'Change plan, name or limit overrides (null removes an override)' })
  async update(@Param('id', ParseIdPipe) id: number, @Body() body: UpdateAccountDto) {
    const account = found(await this.accountChanges.update(id, body), 'Account');
    return accountView(account, { limits: this.accounts.limitsOf(account) });
  }

  @Post('accounts/:id/api-keys')
  @HttpCode(201)
  @ApiOperation({ summary: 'Create an API key; the secret is in this answer only' })
  async createKey(@Param('id', ParseIdPipe) id: number, @Body() body: CreateApiKeyDto) {
    await this.mustFind(id);
    return newKeyView(await this.keys.create(id, body.label));
  }

  @Get('accounts/:id/api-keys')
  @ApiOperation({ summary: 'The account’s keys, without secrets' })
  async listKeys(@Param('id', ParseIdPipe) id: number) {
    await this.mustFind(id);
    const keys = (await this.keys.list(id)).map(keyView);
    return { keys, count: keys.length };
  }

  @Delete('api-keys/:id')
  @ApiOperation({ summary: 'Revoke a key (effective on every instance within 1 s)' })
  async revokeKey(@Param('id', ParseIdPipe) id: number) {
    return keyView(found(await this.keys.revoke(id), 'API key'));
  }

  @Post('accounts/:id/credits')
  @HttpCode(200)
  @ApiOperation({ summary: 'Add (or take away) credits; every change is a ledger row' })
  async addCredits(
    @Param('id', ParseIdPipe) id: number,
    @Body() body: CreditsDto,
    @RequestId() requestId: string,
  ) {
    if (body.amount === 0) throw ApiError.validation('amount', 'amount must not be 0');
    const result = await this.credits.change(id, body.amount, `admin: ${body.reason}`, requestId);
    if (result.ok) return { balance: result.balance };
    if (result.reason === 'no_account') throw ApiError.notFound('Account');
    throw ApiError.validation('amount', 'The balance cannot go below 0.');
  }

  private async mustFind(id: number): Promise<AccountEntity> {
    return found(await this.accounts.find(id), 'Account');
  }
}
