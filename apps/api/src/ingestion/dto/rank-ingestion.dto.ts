import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNullableNumber, IsPlainDate } from '@app/gateway';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import {
  DEVICES,
  DOMAIN_PATTERN,
  INT_MAX,
  Lower,
  MAX_BATCH,
  TrimBody,
  batchSizeMessage,
} from './common';

export class CreateRankProjectDto {
  @ApiProperty({ example: 'example.com' })
  @Lower()
  @IsString()
  @Matches(DOMAIN_PATTERN, { message: 'domain must be a domain name such as example.com' })
  domain: string;

  @ApiProperty({ maxLength: 200 })
  @TrimBody()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name: string;
}

export class CreateTrackedKeywordDto {
  @ApiProperty({ maxLength: 200 })
  @TrimBody()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  keyword: string;

  @ApiProperty({ example: 'US', description: 'Two-letter country code (stored upper-case)' })
  @TrimBody()
  @IsString()
  @Matches(/^[A-Za-z]{2}$/, { message: 'country must be a two-letter country code' })
  country: string;

  @ApiProperty({ example: 'en' })
  @Lower()
  @IsString()
  @Matches(/^[a-z]{2}(-[a-z]{2})?$/, { message: 'language must be a language code such as en' })
  language: string;

  @ApiProperty({ enum: DEVICES })
  @Lower()
  @IsIn(DEVICES)
  device: string;

  @ApiPropertyOptional({ default: 'active', maxLength: 32 })
  @IsOptional()
  @Lower()
  @IsString()
  @IsNotEmpty()
  @MaxLength(32)
  status?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 100, nullable: true })
  @IsOptional()
  @IsNullableNumber(0, 100, true)
  difficulty?: number | null;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, nullable: true })
  @IsOptional()
  @IsNullableNumber(0, INT_MAX, true)
  search_volume?: number | null;

  @ApiPropertyOptional({ type: 'number', minimum: 0, nullable: true })
  @IsOptional()
  @IsNullableNumber(0, 1_000_000, false)
  cpc?: number | null;
}

export class RankCheckDto {
  @ApiProperty({ format: 'date' })
  @IsPlainDate()
  check_date: string;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: '1-1000, or null = not ranked (required)',
  })
  @IsNullableNumber(1, 1000, true)
  position: number | null;

  @ApiPropertyOptional({ nullable: true, maxLength: 2048 })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  landing_page?: string | null;

  @ApiPropertyOptional({ type: 'integer', nullable: true })
  @IsOptional()
  @IsNullableNumber(0, INT_MAX, true)
  gsc_clicks?: number | null;

  @ApiPropertyOptional({ type: 'integer', nullable: true })
  @IsOptional()
  @IsNullableNumber(0, INT_MAX, true)
  gsc_impressions?: number | null;

  @ApiPropertyOptional({ type: 'number', nullable: true, description: 'percent 0-100' })
  @IsOptional()
  @IsNullableNumber(0, 100, false)
  gsc_ctr?: number | null;

  @ApiPropertyOptional({ type: 'number', nullable: true })
  @IsOptional()
  @IsNullableNumber(1, 1000, false)
  gsc_average_position?: number | null;

  @ApiPropertyOptional() @IsOptional() @IsBoolean() featured_snippet?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() ai_overview?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() people_also_ask?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() local_pack?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() images?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() videos?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() shopping?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() knowledge_graph?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() sitelinks?: boolean;
}

export class RankChecksDto {
  @ApiProperty({ type: [RankCheckDto], maxItems: MAX_BATCH })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_BATCH, batchSizeMessage('checks'))
  @ValidateNested({ each: true })
  @Type(() => RankCheckDto)
  checks: RankCheckDto[];
}
