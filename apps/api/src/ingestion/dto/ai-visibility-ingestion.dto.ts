import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNullableNumber, IsPlainDate } from '@app/gateway';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsInt,
  IsNumber,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { DOMAIN_PATTERN, INT_MAX, Lower, MAX_BATCH, TrimBody, batchSizeMessage } from './common';

export class CreateAiProjectDto {
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
  brand_name: string;

  @ApiProperty({ example: 'US' })
  @TrimBody()
  @IsString()
  @Matches(/^[A-Za-z]{2}$/, { message: 'target_country must be a two-letter country code' })
  target_country: string;

  @ApiProperty({ example: 'en' })
  @Lower()
  @IsString()
  @Matches(/^[a-z]{2}(-[a-z]{2})?$/, {
    message: 'target_language must be a language code such as en',
  })
  target_language: string;

  @ApiProperty({ example: 'chatgpt', maxLength: 50 })
  @Lower()
  @IsString()
  @IsNotEmpty()
  @MaxLength(50)
  ai_engine: string;

  @ApiProperty({ example: 'weekly', maxLength: 32 })
  @Lower()
  @IsString()
  @IsNotEmpty()
  @MaxLength(32)
  tracking_frequency: string;

  @ApiPropertyOptional({ default: 'active', maxLength: 32 })
  @IsOptional()
  @Lower()
  @IsString()
  @IsNotEmpty()
  @MaxLength(32)
  status?: string;
}

export class CompetitorDto {
  @ApiProperty({ maxLength: 200 })
  @TrimBody()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  competitor_name: string;

  @ApiProperty({ example: 'rival.com' })
  @Lower()
  @IsString()
  @Matches(DOMAIN_PATTERN, { message: 'competitor_domain must be a domain name such as rival.com' })
  competitor_domain: string;

  @ApiProperty({ type: 'integer', minimum: 0 })
  @IsInt()
  @Min(0)
  @Max(INT_MAX)
  mention_count: number;

  @ApiProperty({ type: 'number', nullable: true, minimum: 0, maximum: 100 })
  @IsNullableNumber(0, 100, false)
  visibility_score: number | null;

  @ApiProperty({ type: 'number', nullable: true, minimum: 1 })
  @IsNullableNumber(1, 1000, false)
  avg_position: number | null;
}

/** One AI-visibility scan. Rates and scores are 0-100 (percent); sentiment_avg is -100..100. */
export class ScanDto {
  @ApiProperty({ format: 'date' })
  @IsPlainDate()
  snapshot_date: string;

  @ApiProperty({ type: 'number', minimum: 0, maximum: 100 })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(100)
  visibility_score: number;

  @ApiProperty({ type: 'number', minimum: 0, maximum: 100 })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(100)
  geo_score: number;

  @ApiProperty({
    type: 'number',
    minimum: 0,
    maximum: 100,
    description: 'percent of prompts that mentioned the brand',
  })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(100)
  mention_rate: number;

  @ApiProperty({ type: 'number', nullable: true, minimum: 1 })
  @IsNullableNumber(1, 1000, false)
  avg_position: number | null;

  @ApiProperty({ type: 'number', nullable: true, minimum: -100, maximum: 100 })
  @IsNullableNumber(-100, 100, false)
  sentiment_avg: number | null;

  @ApiProperty({ type: 'number', minimum: 0, maximum: 100 })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(100)
  citation_rate: number;

  @ApiProperty({ type: 'number', minimum: 0, maximum: 100 })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(100)
  competition_score: number;

  @ApiProperty({ type: 'integer', minimum: 0 })
  @IsInt()
  @Min(0)
  @Max(INT_MAX)
  prompts_evaluated: number;

  @ApiProperty({ type: 'integer', minimum: 0 })
  @IsInt()
  @Min(0)
  @Max(INT_MAX)
  brand_mentions: number;

  @ApiProperty({ type: [CompetitorDto], maxItems: MAX_BATCH })
  @IsArray()
  @ArrayMaxSize(MAX_BATCH, batchSizeMessage('competitors'))
  @ValidateNested({ each: true })
  @Type(() => CompetitorDto)
  competitors: CompetitorDto[];
}
