import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { ToInt } from '@app/gateway';

const PG_INT_MAX = 2_147_483_647;

export class RankKeywordsQueryDto {
  @ApiPropertyOptional({
    type: 'integer',
    description: 'Restrict to one project; another account’s project gives 404',
  })
  @IsOptional()
  @ToInt()
  @IsInt()
  @Min(1)
  @Max(PG_INT_MAX)
  project_id?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 500, default: 100 })
  @IsOptional()
  @ToInt()
  @IsInt()
  @Min(1)
  @Max(500)
  limit?: number;
}

export class RankHistoryQueryDto {
  @ApiProperty({
    type: 'integer',
    description: 'From GET /rank/keywords; a keyword not owned gives 404',
  })
  @ToInt()
  @IsInt()
  @Min(1)
  @Max(PG_INT_MAX)
  keyword_id: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 365, default: 90 })
  @IsOptional()
  @ToInt()
  @IsInt()
  @Min(1)
  @Max(365)
  days?: number;
}
