import { Get } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ApiError, WithMeta, withMeta } from '@app/core';
import { SessionContext } from '@app/accounts';
import { AccountUsageRecord, UsageService } from '../usage/usage.service';
import { AccountAreaController } from './account-area.decorator';
import { CurrentSession } from './session.decorator';

/**
 * GET /account/v1/usage: the members of GET /api/v1/usage's data for the signed-in account
 * (computed by the same UsageService), plus feature quotas, credits and API access. Outside
 * the API-key pipeline, so it is not counted as a call.
 */
@AccountAreaController()
export class AccountUsageController {
  constructor(private readonly usage: UsageService) {}

  @Get('usage')
  @ApiOperation({ summary: 'This month’s usage of the account (not counted as a call)' })
  async read(@CurrentSession() session: SessionContext): Promise<WithMeta<AccountUsageRecord>> {
    const usage = await this.usage.ofAccount(session.accountId);
    if (!usage) throw new ApiError('UNAUTHORIZED', 'Sign in first: no valid session.');
    return withMeta(usage.record, { period_start: usage.periodStart });
  }
}
