import { Get, Param, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { AccountsService } from '@app/accounts';
import { UsageHistory, UsageHistoryService } from '@app/billing';
import { ParseIdPipe } from '@app/gateway';
import { UsageHistoryQueryDto } from './usage.dto';
import { AdminController } from '../admin-routes/admin-route.decorator';
import { found } from '../admin-routes/admin-http-status';

/** An account's usage history (docs/usage-history.md), as the account sees it. */
@AdminController()
export class AdminUsageController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly history: UsageHistoryService,
  ) {}

  @Get('accounts/:id/usage/history')
  @ApiOperation({ summary: 'The account’s calls by day, key or connected app, and endpoint' })
  async read(
    @Param('id', ParseIdPipe) id: number,
    @Query() query: UsageHistoryQueryDto,
  ): Promise<UsageHistory> {
    found(await this.accounts.find(id), 'Account');
    return this.history.history(id, query.days ?? 30);
  }
}
