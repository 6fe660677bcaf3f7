import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsOptional, IsString, Matches, MaxLength, ValidateBy } from 'class-validator';
import { parseRecordTimestamp } from '@app/core';
import {
  AnyText,
  Batch,
  BoundedNumber,
  Count,
  Device,
  Flag,
  PlainDateField,
  Required,
  Rules,
  SearchConsoleCountry,
  Text,
  Trim,
  VerbatimText,
} from '@app/gateway';

export class CreateGscPropertyDto {
  @Rules(
    Text(2048, { api: { example: 'sc-domain:example.com' } }),
    Matches(/^(sc-domain:[^\s]+|https?:\/\/[^\s]+)$/, {
      message: 'property_uri must be sc-domain:<domain> or an http(s) URL prefix',
    }),
  )
  property_uri: string;

  @Text(200)
  display_name: string;

  @Text(32, { optional: true, lower: true, api: { default: 'active' } })
  status?: string;

  @ApiProperty({ format: 'email' })
  @Rules(
    Trim(),
    Required(),
    IsString(),
    MaxLength(320),
    IsEmail({}, { message: 'google_email must be an e-mail address' }),
  )
  google_email: string;

  @Flag({ optional: true, api: { default: false } })
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

  @AnyText(64, { optional: true, api: { nullable: true } })
  last_sync_status?: string | null;
}

export class GscRowDto {
  @PlainDateField()
  date: string;

  @VerbatimText(2048)
  query: string;

  @VerbatimText(2048)
  page: string;

  @SearchConsoleCountry({
    api: { description: 'ISO country code as Search Console reports it (stored lower-case)' },
  })
  country: string;

  @Device()
  device: string;

  @AnyText(64, { optional: true, api: { description: 'omitted or "" = none' } })
  search_appearance?: string;

  @Count()
  clicks: number;

  @Count()
  impressions: number;

  @BoundedNumber(1, 1000)
  position: number;
}

export class GscRowsDto {
  @Batch(GscRowDto, 'rows')
  rows: GscRowDto[];
}
