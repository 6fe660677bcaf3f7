import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { WithMeta, withMeta } from '@app/core';
import { AuthContext } from '@app/accounts';
import { CurrentAuth, CurrentMeter, Endpoint, MeterState } from '@app/gateway';
import { UsageService } from './usage.service';
import { UsageAnswerSchema, UsageRecord } from './usage.schema';

@ApiTags('usage')
@Controller('api/v1/usage')
export class UsageController {
  constructor(private readonly figures: UsageService) {}

  @Get()
  @Endpoint({
    operationId: 'getUsage',
    summary: 'Usage for the current calendar month (this call included)',
    description:
      'The plan, the calls used of the monthly allowance (this call included), whether the account ' +
      'is unlimited, and the date of the next reset. meta.key_name is the label of the key used.',
    group: 'other',
    answer: UsageAnswerSchema,
    errors: [],
    cost: 'One API call (counted in the figures it answers). No feature quota, no credits.',
    sample: {
      typescript: [
        'const { data } = await client.usage();',
        'console.log(`${data.api_calls_used} of ${data.api_calls_limit} calls used; resets ${data.resets_at}`);',
      ].join('\n'),
      pythonPrint: 'answer["data"]',
    },
    client: 'usage',
    mcp: 'get_usage',
  })
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
