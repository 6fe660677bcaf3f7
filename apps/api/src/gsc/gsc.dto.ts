import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { GSC_DIMENSIONS, GSC_SORTS } from '@app/core';
import { PlainDateField, QueryId, QueryInt } from '@app/gateway';

export class GscQueriesQueryDto {
  @QueryId({
    api: { description: 'From GET /gsc/properties; another account’s property gives 404' },
  })
  property_id: number;

  @ApiPropertyOptional({
    enum: GSC_DIMENSIONS,
    default: 'query',
    description: 'Unrecognized values fall back to query',
  })
  @IsOptional()
  dim?: unknown;

  @PlainDateField({
    optional: true,
    api: { description: 'YYYY-MM-DD, default 28 days before today' },
  })
  from?: string;

  @PlainDateField({ optional: true, api: { description: 'YYYY-MM-DD, default today' } })
  to?: string;

  @ApiPropertyOptional({
    enum: GSC_SORTS,
    default: 'clicks',
    description: 'Unrecognized values fall back to clicks',
  })
  @IsOptional()
  sort?: unknown;

  @ApiPropertyOptional({ enum: ['desc', 'asc'], default: 'desc' })
  @IsOptional()
  @IsIn(['desc', 'asc'], { message: 'dir must be asc or desc' })
  dir?: 'asc' | 'desc';

  @QueryInt(1, 500, { optional: true, api: { default: 100 } })
  limit?: number;
}
