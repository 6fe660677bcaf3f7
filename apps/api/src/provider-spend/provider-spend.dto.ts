import { MonthField } from '@app/gateway';

/** GET /admin/v1/accounts/{id}/provider-spend?month=YYYY-MM */
export class ProviderSpendQueryDto {
  @MonthField()
  month: string;
}
