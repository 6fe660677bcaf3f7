import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { ToInt, Trim } from '@app/gateway';

/** Highest page accepted (upstream offsets stop at 20 000 anyway). */
export const MAX_PAGE = 1000;
/** Upstream's largest offset; (page - 1) * limit beyond it is refused. */
export const MAX_OFFSET = 20_000;

export class BacklinksQueryDto {
  @ApiProperty({
    description: 'Root domain; a full URL is accepted and normalized',
    example: 'example.com',
  })
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(2048)
  domain: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_PAGE, default: 1 })
  @IsOptional()
  @ToInt()
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE)
  page: number = 1;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 200, default: 100 })
  @IsOptional()
  @ToInt()
  @IsInt()
  @Min(1)
  @Max(200)
  limit: number = 100;
}
