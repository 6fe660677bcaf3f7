import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { WithMeta, withMeta } from '@app/core';
import { AuthContext } from '@app/accounts';
import { ApiAnswer, CostGroup, CurrentAuth, CurrentMeter, MeterState } from '@app/gateway';
import { UsageService } from './usage.service';
import { UsageAnswerSchema, UsageRecord } from './usage.schema';

@ApiTags('usage')
@CostGroup('other')
@Controller('api/v1/usage')
export class UsageController {
  constructor(private readonly figures: UsageService) {}

  @Get()
  @ApiOperation({
    summary: 'Usage for the current calendar month (this call included)',
    description:
      'The plan, the calls used of the monthly allowance (this call included), whether the account ' +
      'is unlimited, and the date of the next reset. meta.key_name is the label of the key used.',
  })
  @ApiAnswer(UsageAnswerSchema)
  usage(
    @CurrentAuth() auth: AuthContext,
    @CurrentMeter() meter: MeterState,
  ): WithMeta<UsageRecord> {
    const { record, periodStart } = this.figures.calls(
      auth.plan,
      auth.limits,
      meter.used,
      meter.periodStart,
    );
    return withMeta(record, { key_name: auth.keyLabel, period_start: periodStart });
  }
}
