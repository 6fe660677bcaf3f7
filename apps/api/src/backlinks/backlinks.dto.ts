import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { QueryInt, Required, Rules, Trim } from '@app/gateway';

/** Highest page accepted (upstream offsets stop at 20 000 anyway). */
const MAX_PAGE = 1000;
/** Upstream's largest offset; (page - 1) * limit beyond it is refused. */
export const MAX_OFFSET = 20_000;

export class BacklinksQueryDto {
  @ApiProperty({
    description: 'Root domain; a full URL is accepted and normalized',
    example: 'example.com',
  })
  // Text(2048)'s rules, written out because its OpenAPI entry must not gain a maxLength.
  @Rules(Trim(), Required(), IsString(), IsNotEmpty(), MaxLength(2048))
  domain: string;

  @QueryInt(1, MAX_PAGE, { optional: true, api: { default: 1 } })
  page: number = 1;

  @QueryInt(1, 200, { optional: true, api: { default: 100 } })
  limit: number = 100;
}
