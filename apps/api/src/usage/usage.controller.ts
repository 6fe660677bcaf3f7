import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { WithMeta, monthStart, nextMonthStart, plainDate, withMeta, Clock } from '@app/core';
import { AuthContext } from '@app/accounts';
import { CostGroup, CurrentAuth, CurrentMeter, MeterState } from '@app/gateway';

export interface UsageRecord {
  plan: string;
  api_calls_used: number;
  api_calls_limit: number;
  unlimited: boolean;
  resets_at: string;
}

@ApiTags('usage')
@CostGroup('other')
@Controller('api/v1/usage')
export class UsageController {
  constructor(private readonly clock: Clock) {}

  @Get()
  @ApiOperation({ summary: 'Usage for the current calendar month (this call included)' })
  usage(
    @CurrentAuth() auth: AuthContext,
    @CurrentMeter() meter: MeterState,
  ): WithMeta<UsageRecord> {
    const now = this.clock.now();
    const limit = auth.limits.api_calls_per_month;
    return withMeta(
      {
        plan: auth.plan.toLowerCase(),
        api_calls_used: meter.used,
        api_calls_limit: limit === 'unlimited' ? 0 : limit,
        unlimited: limit === 'unlimited',
        resets_at: plainDate(nextMonthStart(now)),
      },
      { key_name: auth.keyLabel, period_start: plainDate(monthStart(now)) },
    );
  }
}
