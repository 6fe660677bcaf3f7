import { Body, Get, Put, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ApiError, WithMeta, withMeta } from '@app/core';
import { SessionContext } from '@app/accounts';
import { UsageHistory, UsageHistoryService } from '@app/billing';
import { AccountUsageRecord, UsageService } from './usage.service';
import { UsageAlertsService, UsageAlertsView } from './usage-alerts.service';
import { UsageAlertsDto, UsageHistoryQueryDto } from './usage.dto';
import { AccountAreaController } from '../session/account-area.decorator';
import { CurrentSession } from '../session/session.decorator';

/**
 * The signed-in account's usage (outside the API-key pipeline, so none of these is counted
 * as a call): GET /account/v1/usage (the members of GET /api/v1/usage's data, computed by the
 * same UsageService, plus feature quotas, credits and API access), the usage history by day,
 * key and endpoint, and the usage-alert settings (docs/usage-history.md).
 */
@AccountAreaController()
export class AccountUsageController {
  constructor(
    private readonly usage: UsageService,
    private readonly history: UsageHistoryService,
    private readonly alerts: UsageAlertsService,
  ) {}

  @Get('usage')
  @ApiOperation({ summary: 'This month’s usage of the account (not counted as a call)' })
  async read(@CurrentSession() session: SessionContext): Promise<WithMeta<AccountUsageRecord>> {
    const usage = await this.usage.ofAccount(session.accountId);
    if (!usage) throw new ApiError('UNAUTHORIZED', 'Sign in first: no valid session.');
    return withMeta(usage.record, { period_start: usage.periodStart });
  }

  @Get('usage/history')
  @ApiOperation({
    summary: 'Calls counted by day (by cost group), by key or connected app, and by endpoint',
  })
  readHistory(
    @CurrentSession() session: SessionContext,
    @Query() query: UsageHistoryQueryDto,
  ): Promise<UsageHistory> {
    return this.history.history(session.accountId, query.days ?? 30);
  }

  @Get('alerts')
  @ApiOperation({ summary: 'The usage-alert settings and the thresholds that fired' })
  readAlerts(@CurrentSession() session: SessionContext): Promise<UsageAlertsView> {
    return this.alerts.view(session.accountId);
  }

  @Put('alerts')
  @ApiOperation({
    summary:
      'Replaces the usage-alert settings: a signed usage.threshold_reached webhook once per threshold and month',
  })
  replaceAlerts(
    @CurrentSession() session: SessionContext,
    @Body() body: UsageAlertsDto,
  ): Promise<UsageAlertsView> {
    return this.alerts.replace(session.accountId, body.webhook_url, body.thresholds);
  }
}
