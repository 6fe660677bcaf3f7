import { z } from 'zod';
import { named, plainDateSchema, successEnvelope } from '@app/gateway';

/** Usage record: data of GET /api/v1/usage (spec "Usage record"). */
export const UsageRecordSchema = named(
  'UsageRecord',
  z.object({
    plan: z.string().meta({ description: 'Plan name in lower case', example: 'pro' }),
    api_calls_used: z
      .int()
      .meta({ description: 'Calls used this calendar month, this one included' }),
    api_calls_limit: z.int().meta({ description: 'Monthly call allowance' }),
    unlimited: z.boolean().meta({ description: 'true when the account has no monthly cap' }),
    resets_at: plainDateSchema.meta({
      description: 'Date of the next reset (the 1st of next month, UTC)',
    }),
  }),
);

export const UsageAnswerSchema = successEnvelope('UsageAnswer', UsageRecordSchema, {
  key_name: z.string().meta({ description: 'The label of the API key used' }),
  period_start: plainDateSchema.meta({ description: 'First day of the month counted' }),
});

/** The data of GET /api/v1/usage (and the first members of GET /account/v1/usage). */
export type UsageRecord = z.infer<typeof UsageRecordSchema>;
