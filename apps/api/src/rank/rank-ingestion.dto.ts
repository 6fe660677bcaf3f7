import {
  AnyText,
  Batch,
  CountryCode,
  Device,
  DomainName,
  Flag,
  INGEST_INT_MAX,
  LanguageCode,
  NullableNumber,
  PlainDateField,
  Text,
} from '@app/gateway';

/** Bounds these fields validate but have never shown in the OpenAPI document. */
const UNDOCUMENTED_BOUNDS = { minimum: undefined, maximum: undefined };

export class CreateRankProjectDto {
  @DomainName()
  domain: string;

  @Text(200)
  name: string;

  /**
   * Whether the worker checks the project's keywords itself (docs/rank-collection.md).
   * Imported history: false unless the body says true; absent on an update keeps the stored value.
   */
  @Flag({ optional: true, api: { default: false } })
  tracking?: boolean;
}

export class CreateTrackedKeywordDto {
  @Text(200)
  keyword: string;

  @CountryCode({ api: { description: 'Two-letter country code (stored upper-case)' } })
  country: string;

  @LanguageCode()
  language: string;

  @Device()
  device: string;

  @Text(32, { optional: true, lower: true, api: { default: 'active' } })
  status?: string;

  @NullableNumber(0, 100, true, { optional: true })
  difficulty?: number | null;

  @NullableNumber(0, INGEST_INT_MAX, true, { optional: true, api: { maximum: undefined } })
  search_volume?: number | null;

  @NullableNumber(0, 1_000_000, false, { optional: true, api: { maximum: undefined } })
  cpc?: number | null;
}

export class RankCheckDto {
  @PlainDateField()
  check_date: string;

  @NullableNumber(1, 1000, true, {
    api: { ...UNDOCUMENTED_BOUNDS, description: '1-1000, or null = not ranked (required)' },
  })
  position: number | null;

  @AnyText(2048, { optional: true, api: { nullable: true } })
  landing_page?: string | null;

  @NullableNumber(0, INGEST_INT_MAX, true, { optional: true, api: UNDOCUMENTED_BOUNDS })
  gsc_clicks?: number | null;

  @NullableNumber(0, INGEST_INT_MAX, true, { optional: true, api: UNDOCUMENTED_BOUNDS })
  gsc_impressions?: number | null;

  @NullableNumber(0, 100, false, {
    optional: true,
    api: { ...UNDOCUMENTED_BOUNDS, description: 'percent 0-100' },
  })
  gsc_ctr?: number | null;

  @NullableNumber(1, 1000, false, { optional: true, api: UNDOCUMENTED_BOUNDS })
  gsc_average_position?: number | null;

  @Flag({ optional: true })
  featured_snippet?: boolean;

  @Flag({ optional: true })
  ai_overview?: boolean;

  @Flag({ optional: true })
  people_also_ask?: boolean;

  @Flag({ optional: true })
  local_pack?: boolean;

  @Flag({ optional: true })
  images?: boolean;

  @Flag({ optional: true })
  videos?: boolean;

  @Flag({ optional: true })
  shopping?: boolean;

  @Flag({ optional: true })
  knowledge_graph?: boolean;

  @Flag({ optional: true })
  sitelinks?: boolean;
}

export class RankChecksDto {
  @Batch(RankCheckDto, 'checks')
  checks: RankCheckDto[];
}
