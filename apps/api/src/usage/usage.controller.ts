import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { WithMeta, withMeta } from '@app/core';
import { AuthContext } from '@app/accounts';
import { CostGroup, CurrentAuth, CurrentMeter, MeterState } from '@app/gateway';
import { UsageRecord, UsageService } from './usage.service';

export type { UsageRecord } from './usage.service';

@ApiTags('usage')
@CostGroup('other')
@Controller('api/v1/usage')
export class UsageController {
  constructor(private readonly figures: UsageService) {}

  @Get()
  @ApiOperation({ summary: 'Usage for the current calendar month (this call included)' })
  usage(
    @CurrentAuth() auth: AuthContext,
    @CurrentMeter() meter: MeterState,
  ): WithMeta<UsageRecord> {
    const { record, periodStart } = this.figures.calls(auth.plan, auth.limits, meter.used);
    return withMeta(record, { key_name: auth.keyLabel, period_start: periodStart });
  }
}
