import { Matches } from 'class-validator';
import { Rules, Text } from '@app/gateway';

/** GET /admin/v1/accounts/{id}/provider-spend?month=YYYY-MM */
export class ProviderSpendQueryDto {
  @Rules(
    Text(7, { api: { example: '2026-09', description: 'A calendar month (UTC), YYYY-MM' } }),
    Matches(/^\d{4}-(0[1-9]|1[0-2])$/, { message: 'month must be a month as YYYY-MM' }),
  )
  month: string;
}
