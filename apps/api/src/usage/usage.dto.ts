import { ApiProperty } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsInt,
  IsOptional,
  Max,
  Min,
  ValidateIf,
} from 'class-validator';
import { USAGE_HISTORY_MAX_DAYS } from '@app/billing';
import { QueryInt, Rules, Text } from '@app/gateway';
import { IsWebhookUrl, MAX_WEBHOOK_URL_LENGTH } from '@app/webhooks';

/** GET /account/v1/usage/history?days= (and the admin twin). */
export class UsageHistoryQueryDto {
  @QueryInt(1, USAGE_HISTORY_MAX_DAYS, {
    optional: true,
    api: { default: 30, description: 'Days to show, ending today (UTC)' },
  })
  days?: number;
}

/** PUT /account/v1/alerts: replaces the usage-alert settings. */
export class UsageAlertsDto {
  @ApiProperty({
    type: String,
    nullable: true,
    maxLength: MAX_WEBHOOK_URL_LENGTH,
    description:
      'https URL that receives a signed usage.threshold_reached webhook (the same rules and signing secret as ' +
      'site-audit webhooks), or null to turn alerts off',
    example: 'https://example.com/hooks/seo-api',
  })
  @ValidateIf((o: UsageAlertsDto) => o.webhook_url !== null)
  @Rules(
    Text(MAX_WEBHOOK_URL_LENGTH, {
      missing: 'webhook_url is required: an https URL, or null to turn alerts off',
    }),
    IsWebhookUrl(),
  )
  webhook_url!: string | null;

  @ApiProperty({
    required: false,
    type: [Number],
    minItems: 1,
    maxItems: 3,
    uniqueItems: true,
    default: [80, 100],
    description: 'Percentages of the monthly call allowance (integers 1-100, distinct)',
  })
  @Rules(
    IsOptional(),
    IsArray({ message: 'thresholds must be a list of 1 to 3 percentages, e.g. [80, 100]' }),
    ArrayMinSize(1, { message: 'thresholds must hold 1 to 3 percentages' }),
    ArrayMaxSize(3, { message: 'thresholds must hold 1 to 3 percentages' }),
    ArrayUnique({ message: 'thresholds must be distinct' }),
    IsInt({ each: true, message: 'each threshold must be a whole percentage' }),
    Min(1, { each: true, message: 'each threshold must be at least 1' }),
    Max(100, { each: true, message: 'each threshold must be at most 100' }),
  )
  thresholds?: number[];
}
