import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { IsPlainDate, ToInt } from '@app/gateway';
import { GSC_DIMENSIONS, GSC_SORTS } from './gsc-query-params';

const PG_INT_MAX = 2_147_483_647;

export class GscQueriesQueryDto {
  @ApiProperty({
    type: 'integer',
    description: 'From GET /gsc/properties; another account’s property gives 404',
  })
  @ToInt()
  @IsInt()
  @Min(1)
  @Max(PG_INT_MAX)
  property_id: number;

  @ApiPropertyOptional({
    enum: GSC_DIMENSIONS,
    default: 'query',
    description: 'Unrecognized values fall back to query',
  })
  @IsOptional()
  dim?: unknown;

  @ApiPropertyOptional({ format: 'date', description: 'YYYY-MM-DD, default 28 days before today' })
  @IsOptional()
  @IsPlainDate()
  from?: string;

  @ApiPropertyOptional({ format: 'date', description: 'YYYY-MM-DD, default today' })
  @IsOptional()
  @IsPlainDate()
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

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 500, default: 100 })
  @IsOptional()
  @ToInt()
  @IsInt()
  @Min(1)
  @Max(500)
  limit?: number;
}
