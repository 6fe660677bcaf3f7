import { GSC_DIMENSIONS, GSC_SORTS } from '@app/core';
import { FallsBackTo, OneOf, PlainDateField, QueryId, QueryInt } from '@app/gateway';

export class GscQueriesQueryDto {
  @QueryId({
    api: { description: 'From GET /gsc/properties; another account’s property gives 404' },
  })
  property_id: number;

  @FallsBackTo(GSC_DIMENSIONS, 'query')
  dim?: unknown;

  @PlainDateField({
    optional: true,
    api: { description: 'YYYY-MM-DD, default 28 days before today' },
  })
  from?: string;

  @PlainDateField({ optional: true, api: { description: 'YYYY-MM-DD, default today' } })
  to?: string;

  @FallsBackTo(GSC_SORTS, 'clicks')
  sort?: unknown;

  @OneOf(['desc', 'asc'], {
    optional: true,
    message: 'dir must be asc or desc',
    api: { default: 'desc' },
  })
  dir?: 'asc' | 'desc';

  @QueryInt(1, 500, { optional: true, api: { default: 100 } })
  limit?: number;
}
