import {
  Batch,
  BoundedNumber,
  Count,
  CountryCode,
  DomainName,
  LanguageCode,
  NullableNumber,
  PlainDateField,
  Text,
} from '@app/gateway';

export class CreateAiProjectDto {
  @DomainName()
  domain: string;

  @Text(200)
  brand_name: string;

  @CountryCode()
  target_country: string;

  @LanguageCode()
  target_language: string;

  @Text(50, { lower: true, api: { example: 'chatgpt' } })
  ai_engine: string;

  @Text(32, { lower: true, api: { example: 'weekly' } })
  tracking_frequency: string;

  @Text(32, { optional: true, lower: true, api: { default: 'active' } })
  status?: string;
}

export class CompetitorDto {
  @Text(200)
  competitor_name: string;

  @DomainName('rival.com')
  competitor_domain: string;

  @Count()
  mention_count: number;

  @NullableNumber(0, 100, false)
  visibility_score: number | null;

  @NullableNumber(1, 1000, false, { api: { maximum: undefined } })
  avg_position: number | null;
}

/** One AI-visibility scan. Rates and scores are 0-100 (percent); sentiment_avg is -100..100. */
export class ScanDto {
  @PlainDateField()
  snapshot_date: string;

  @BoundedNumber(0, 100)
  visibility_score: number;

  @BoundedNumber(0, 100)
  geo_score: number;

  @BoundedNumber(0, 100, { api: { description: 'percent of prompts that mentioned the brand' } })
  mention_rate: number;

  @NullableNumber(1, 1000, false, { api: { maximum: undefined } })
  avg_position: number | null;

  @NullableNumber(-100, 100, false)
  sentiment_avg: number | null;

  @BoundedNumber(0, 100)
  citation_rate: number;

  @BoundedNumber(0, 100)
  competition_score: number;

  @Count()
  prompts_evaluated: number;

  @Count()
  brand_mentions: number;

  @Batch(CompetitorDto, 'competitors', { allowEmpty: true })
  competitors: CompetitorDto[];
}
