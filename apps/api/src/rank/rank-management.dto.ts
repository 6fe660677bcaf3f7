import { ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { Transform, plainToInstance } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  ValidateBy,
  ValidateNested,
} from 'class-validator';
import {
  CountryCode,
  DomainName,
  Flag,
  LanguageCode,
  Lower,
  OneOf,
  Required,
  Rules,
  Text,
} from '@app/gateway';
import { MARKETS, SUPPORTED_LANGUAGES, normalizeHost } from '@app/providers';

/** How a project's domain matches a result's host (docs/rank-management.md). */
export const DOMAIN_MATCHES = ['domain', 'exact_host'] as const;
/** The devices a keyword is checked on. */
export const KEYWORD_DEVICES = ['desktop', 'mobile'] as const;
/** The statuses a keyword can be set to (pending and error are the service's). */
export const SETTABLE_STATUSES = ['active', 'paused'] as const;
/** Most keyword items one add-keywords batch holds. */
export const MAX_KEYWORDS_PER_BATCH = 1000;
/** Longest keyword (after trimming and collapsing inner spaces). */
export const MAX_KEYWORD_LENGTH = 200;

const MARKET_COUNTRIES = MARKETS.map((m) => m.country_iso);

/**
 * A project domain: lower case, no scheme, path, port or leading `www.`, then a domain name
 * (rank and AI-visibility projects, their competitors).
 */
export function ProjectDomain(options: { optional?: boolean } = {}): PropertyDecorator {
  return Rules(
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' ? normalizeHost(value) : value,
    ),
    DomainName('example.com', {
      optional: options.optional,
      api: {
        description:
          'Stored normalised: lower case, without scheme, path, port or a leading www. (https://www.Example.com/x → example.com)',
      },
    }),
  );
}

/**
 * A supported market's two-letter country (GET /keyword-research/locations), stored
 * upper-case. Optional (default US) unless `required`.
 */
export function MarketCountry(options: { required?: boolean } = {}): PropertyDecorator {
  return Rules(
    CountryCode({
      optional: !options.required,
      api: {
        description:
          'A supported market (GET /keyword-research/locations country_iso)' +
          (options.required ? '' : '; default US'),
      },
    }),
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' ? value.trim().toUpperCase() : value,
    ),
    IsIn(MARKET_COUNTRIES, {
      message: ({ property }) =>
        `${property} must be a supported market (see GET /api/v1/keyword-research/locations)`,
    }),
  );
}

/** One of the spec's language codes: optional (default en) unless `required`. */
export function KeywordLanguage(options: { required?: boolean } = {}): PropertyDecorator {
  return Rules(
    LanguageCode({
      optional: !options.required,
      api: {
        enum: SUPPORTED_LANGUAGES,
        ...(options.required ? {} : { description: 'default en' }),
      },
    }),
    IsIn(SUPPORTED_LANGUAGES, {
      message: ({ property }) => `${property} must be one of ${SUPPORTED_LANGUAGES.join(', ')}`,
    }),
  );
}

/** desktop or mobile (any case). */
function KeywordDevice(): PropertyDecorator {
  return Rules(Lower(), OneOf(KEYWORD_DEVICES, { optional: true, api: { default: 'desktop' } }));
}

/** Text shown to people and stored as text: no control characters (PostgreSQL refuses NUL). */
export function NoControlCharacters(): PropertyDecorator {
  return ValidateBy({
    name: 'noControlCharacters',
    validator: {
      validate: (v: unknown) =>
        typeof v !== 'string' ||
        ![...v].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f),
      defaultMessage: (args) => `${args?.property} must not contain control characters`,
    },
  });
}

/** A keyword: trimmed, inner whitespace collapsed to one space, 1-200 characters. */
function KeywordText(): PropertyDecorator {
  return Rules(
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' ? value.replace(/\s+/g, ' ').trim() : value,
    ),
    Text(MAX_KEYWORD_LENGTH, { api: { example: 'running shoes' } }),
    NoControlCharacters(),
  );
}

/** A project name: 1-200 characters after trimming. */
function ProjectName(api: { description?: string } = {}): PropertyDecorator {
  return Rules(Text(200, { optional: true, api }), NoControlCharacters());
}

export class NewRankProjectDto {
  @ProjectDomain()
  domain: string;

  @ProjectName({ description: 'Defaults to the domain' })
  name?: string;

  @OneOf(DOMAIN_MATCHES, { optional: true, api: { default: 'domain' } })
  match?: (typeof DOMAIN_MATCHES)[number];

  @Flag({
    optional: true,
    api: { default: true, description: 'Whether the service checks the keywords daily' },
  })
  tracking?: boolean;
}

export class RankProjectChangesDto {
  @ProjectName()
  name?: string;

  @OneOf(DOMAIN_MATCHES, { optional: true })
  match?: (typeof DOMAIN_MATCHES)[number];

  @Flag({ optional: true })
  tracking?: boolean;
}

/** The market and device members of a batch and of its items (an item's win). */
class KeywordMarketDto {
  @MarketCountry()
  country?: string;

  @KeywordLanguage()
  language?: string;

  @KeywordDevice()
  device?: string;
}

export class RankKeywordItemDto extends KeywordMarketDto {
  @KeywordText()
  keyword: string;
}

/** Items: a string is `{keyword: string}`; objects become items; anything else stays for the checks. */
function toItems(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return value.map((v: unknown) => {
    if (typeof v === 'string') return plainToInstance(RankKeywordItemDto, { keyword: v });
    if (typeof v === 'object' && v !== null && !Array.isArray(v))
      return plainToInstance(RankKeywordItemDto, v);
    return v;
  });
}

export class RankKeywordsBatchDto extends KeywordMarketDto {
  @Rules(
    ApiProperty({
      type: 'array',
      minItems: 1,
      maxItems: MAX_KEYWORDS_PER_BATCH,
      items: { oneOf: [{ type: 'string' }, { $ref: getSchemaPath(RankKeywordItemDto) }] },
      description:
        'Keywords: strings, or objects whose country, language and device win over the body’s',
    }),
    Required(),
    IsArray(),
    ArrayMinSize(1),
    ArrayMaxSize(MAX_KEYWORDS_PER_BATCH, {
      message: `A batch holds at most ${MAX_KEYWORDS_PER_BATCH} keywords; split it into several requests.`,
    }),
    ValidateBy({
      name: 'isKeywordItems',
      validator: {
        validate: (v: unknown) =>
          Array.isArray(v) && v.every((i) => i instanceof RankKeywordItemDto),
        defaultMessage: (args) =>
          `each item of ${args?.property} must be a keyword (a string) or an object with keyword`,
      },
    }),
    ValidateNested({ each: true }),
    Transform(({ value }: { value: unknown }) => toItems(value)),
  )
  keywords: RankKeywordItemDto[];
}

export class RankKeywordStatusDto {
  @Rules(Lower(), OneOf(SETTABLE_STATUSES))
  status: (typeof SETTABLE_STATUSES)[number];
}
