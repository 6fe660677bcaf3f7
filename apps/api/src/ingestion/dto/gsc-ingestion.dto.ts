import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsPlainDate } from '@app/gateway';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsNumber,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateBy,
  ValidateNested,
} from 'class-validator';
import { parseRecordTimestamp } from '../ingestion-time';
import { DEVICES, INT_MAX, Lower, MAX_BATCH, TrimBody, batchSizeMessage } from './common';

export class CreateGscPropertyDto {
  @ApiProperty({ example: 'sc-domain:example.com', maxLength: 2048 })
  @TrimBody()
  @IsString()
  @IsNotEmpty()
  @MaxLength(2048)
  @Matches(/^(sc-domain:[^\s]+|https?:\/\/[^\s]+)$/, {
    message: 'property_uri must be sc-domain:<domain> or an http(s) URL prefix',
  })
  property_uri: string;

  @ApiProperty({ maxLength: 200 })
  @TrimBody()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  display_name: string;

  @ApiPropertyOptional({ default: 'active', maxLength: 32 })
  @IsOptional()
  @Lower()
  @IsString()
  @IsNotEmpty()
  @MaxLength(32)
  status?: string;

  @ApiProperty({ format: 'email' })
  @TrimBody()
  @IsString()
  @IsEmail({}, { message: 'google_email must be an e-mail address' })
  @MaxLength(320)
  google_email: string;

  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @IsBoolean()
  is_sandbox?: boolean;

  @ApiPropertyOptional({ example: '2026-11-20 06:00:00', nullable: true })
  @IsOptional()
  @ValidateBy({
    name: 'isRecordTimestamp',
    validator: {
      validate: (v: unknown) => typeof v === 'string' && parseRecordTimestamp(v) !== null,
      defaultMessage: () => 'last_synced_at must be a timestamp YYYY-MM-DD HH:MM:SS (UTC)',
    },
  })
  last_synced_at?: string | null;

  @ApiPropertyOptional({ nullable: true, maxLength: 64 })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  last_sync_status?: string | null;
}

export class GscRowDto {
  @ApiProperty({ format: 'date' })
  @IsPlainDate()
  date: string;

  @ApiProperty({ maxLength: 2048 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(2048)
  query: string;

  @ApiProperty({ maxLength: 2048 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(2048)
  page: string;

  @ApiProperty({
    example: 'usa',
    description: 'ISO country code as Search Console reports it (stored lower-case)',
  })
  @Lower()
  @IsString()
  @Matches(/^[a-z]{2,3}$/, { message: 'country must be a 2- or 3-letter country code' })
  country: string;

  @ApiProperty({ enum: DEVICES })
  @Lower()
  @IsIn(DEVICES)
  device: string;

  @ApiPropertyOptional({ maxLength: 64, description: 'omitted or "" = none' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  search_appearance?: string;

  @ApiProperty({ type: 'integer', minimum: 0 })
  @IsInt()
  @Min(0)
  @Max(INT_MAX)
  clicks: number;

  @ApiProperty({ type: 'integer', minimum: 0 })
  @IsInt()
  @Min(0)
  @Max(INT_MAX)
  impressions: number;

  @ApiProperty({ type: 'number', minimum: 1, maximum: 1000 })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(1)
  @Max(1000)
  position: number;
}

export class GscRowsDto {
  @ApiProperty({ type: [GscRowDto], maxItems: MAX_BATCH })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_BATCH, batchSizeMessage('rows'))
  @ValidateNested({ each: true })
  @Type(() => GscRowDto)
  rows: GscRowDto[];
}
