import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { BodyInt, Rules, Text } from '@app/gateway';
import { DEFAULT_LOCATION_CODE, SUPPORTED_LANGUAGES } from '@app/providers';

export class KeywordResearchDto {
  @Rules(
    Text(200, { api: { example: 'running shoes' } }),
    // Control characters (other than whitespace, which is collapsed) are never a keyword.
    // eslint-disable-next-line no-control-regex
    Matches(/^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/, {
      message: 'keyword must not contain control characters',
    }),
  )
  keyword: string;

  @ApiPropertyOptional({
    type: 'integer',
    default: DEFAULT_LOCATION_CODE,
    description:
      'One of GET /keyword-research/locations; anything else is 422 UNSUPPORTED_LOCATION',
  })
  @IsOptional()
  @IsInt()
  location_code?: number;

  @ApiPropertyOptional({
    default: 'en',
    example: 'en',
    description:
      `One of ${SUPPORTED_LANGUAGES.join(', ')}. Unknown codes fall back to en (named in meta.warnings); a language ` +
      'the market does not offer uses the market language (echoed as data.language_code)',
  })
  @Rules(IsOptional(), IsString(), MaxLength(64))
  language_code?: string;

  @BodyInt(1, 100, {
    optional: true,
    api: { type: 'integer', default: 10, description: 'Most related keywords' },
  })
  limit?: number;
}
