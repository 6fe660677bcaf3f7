import { Get, Param, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { AccountsService } from '@app/accounts';
import { ParseIdPipe } from '@app/gateway';
import { AdminController } from '../admin-routes/admin-route.decorator';
import { found } from '../admin-routes/admin-http-status';
import { ProviderSpendQueryDto } from './provider-spend.dto';
import { ProviderSpendRepository, ProviderSpendRow } from './provider-spend.repository';

/** What an account cost at the provider in a month (docs/rank-collection.md, "Provider spend"). */
@AdminController()
export class ProviderSpendController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly spend: ProviderSpendRepository,
  ) {}

  @Get('accounts/:id/provider-spend')
  @ApiOperation({
    summary: 'Provider tasks and USD of an account in a month, by provider endpoint',
  })
  async read(@Param('id', ParseIdPipe) id: number, @Query() query: ProviderSpendQueryDto) {
    found(await this.accounts.find(id), 'Account');
    return providerSpendView(query.month, await this.spend.byEndpoint(id, `${query.month}-01`));
  }
}

/** `{month, total_usd, by_endpoint}`; USD as numbers rounded to the ledger's 6 decimals. */
export function providerSpendView(month: string, rows: ProviderSpendRow[]) {
  const by_endpoint = rows.map((r) => ({
    endpoint: r.endpoint,
    tasks: r.tasks,
    usd: Number(r.usd),
  }));
  const micro = rows.reduce((s, r) => s + Math.round(Number(r.usd) * 1e6), 0);
  return { month, total_usd: micro / 1e6, by_endpoint };
}
