import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  IS_DEFINED,
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
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
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, isAcceptablePassword } from '@app/accounts';
import { IsNullableNumber, IsPlainDate } from './plain-date.validator';
import { PG_INT_MAX, ToInt } from './validation';

/**
 * Composed field rules for DTOs: each domain rule (ids, domains, countries, languages,
 * dates, bounded text, batches) is written once here and used by every DTO, so the same
 * field is validated, transformed and documented the same way everywhere.
 */

/**
 * Applies decorators in the order they are listed. class-validator checks a property's rules
 * in the order they were applied and the pipe stops at the first that fails
 * (`stopAtFirstError`), so list them as they should be judged: presence, then type, then
 * length, range or format. Decorators written one above the other on a property apply from
 * the bottom up, which reverses that order: a DTO that adds a rule to a composed field, or
 * writes its rules out, puts them in one `Rules(...)` instead.
 */
export function Rules(...decorators: PropertyDecorator[]): PropertyDecorator {
  return applyDecorators(...decorators) as PropertyDecorator;
}

/**
 * The value must be present: "<field> is required" (`message` replaces it). Registered under
 * class-validator's `isDefined` name, which is checked before the property's other rules
 * whatever their order, so an absent value never gets a type, length or range message.
 * `nullable`: JSON null counts as present (a value that may be null but not omitted).
 */
export function Required(
  options: { nullable?: boolean; message?: string } = {},
): PropertyDecorator {
  return ValidateBy({
    name: IS_DEFINED,
    validator: {
      validate: (v: unknown) => v !== undefined && (options.nullable === true || v !== null),
      defaultMessage: (args) => options.message ?? `${args?.property} is required`,
    },
  });
}

function doc(optional: boolean | undefined, options: ApiPropertyOptions): PropertyDecorator {
  return optional ? ApiPropertyOptional(options) : ApiProperty(options);
}

/** Optional fields skip their rules when absent; the others are required first. */
function presence(options: FieldOptions): PropertyDecorator[] {
  return options.optional ? [IsOptional()] : [Required({ message: options.missing })];
}

/** Largest count or amount an ingested integer may hold. */
export const INGEST_INT_MAX = 2_000_000_000;
/** Largest batch one ingestion call accepts (checks, GSC rows, competitors). */
export const MAX_BATCH = 10_000;
const DEVICES = ['desktop', 'mobile', 'tablet'] as const;
const DOMAIN_PATTERN =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/;

/** Trims and lower-cases a string; leaves anything else for the type checks to refuse. */
export function Lower(): PropertyDecorator {
  return Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' ? value.trim().toLowerCase() : value,
  );
}

interface FieldOptions {
  optional?: boolean;
  /** The message when a required field is absent (default "<field> is required"). */
  missing?: string;
  /** Extra OpenAPI members (description, example, default). */
  api?: ApiPropertyOptions;
}

/** A query-string integer within [min, max] (`page=1.5`, `abc`, repeats and empties refused). */
export function QueryInt(min: number, max: number, options: FieldOptions = {}): PropertyDecorator {
  return Rules(
    doc(options.optional, { type: 'integer', minimum: min, maximum: max, ...options.api }),
    ...presence(options),
    ToInt(),
    IsInt(),
    Min(min),
    Max(max),
  );
}

/** A JSON-body integer of at least `min` (and at most `max`, when given). */
export function BodyInt(
  min: number,
  max: number | undefined,
  options: FieldOptions = {},
): PropertyDecorator {
  return Rules(
    doc(options.optional, {
      minimum: min,
      ...(max === undefined ? {} : { maximum: max }),
      ...options.api,
    }),
    ...presence(options),
    IsInt(),
    Min(min),
    ...(max === undefined ? [] : [Max(max)]),
  );
}

/** A query-string record id: a positive integer that fits PostgreSQL's integer. */
export function QueryId(options: FieldOptions = {}): PropertyDecorator {
  return Rules(
    doc(options.optional, { type: 'integer', ...options.api }),
    ...presence(options),
    ToInt(),
    IsInt(),
    Min(1),
    Max(PG_INT_MAX),
  );
}

/** A bare domain name (`example.com`), lower-cased. */
export function DomainName(example = 'example.com', options: FieldOptions = {}): PropertyDecorator {
  return Rules(
    doc(options.optional, { example, ...options.api }),
    ...presence(options),
    Lower(),
    IsString(),
    Matches(DOMAIN_PATTERN, {
      message: ({ property }) => `${property} must be a domain name such as ${example}`,
    }),
  );
}

/** A two-letter country code (any case; the repository stores it upper-case). */
export function CountryCode(options: FieldOptions = {}): PropertyDecorator {
  return Rules(
    doc(options.optional, { example: 'US', ...options.api }),
    ...presence(options),
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' ? value.trim() : value,
    ),
    IsString(),
    Matches(/^[A-Za-z]{2}$/, {
      message: ({ property }) => `${property} must be a two-letter country code`,
    }),
  );
}

/** A 2- or 3-letter country code as Search Console reports it, lower-cased. */
export function SearchConsoleCountry(options: FieldOptions = {}): PropertyDecorator {
  return Rules(
    doc(options.optional, { example: 'usa', ...options.api }),
    ...presence(options),
    Lower(),
    IsString(),
    Matches(/^[a-z]{2,3}$/, {
      message: ({ property }) => `${property} must be a 2- or 3-letter country code`,
    }),
  );
}

/** A language code such as `en` or `pt-br`, lower-cased. */
export function LanguageCode(options: FieldOptions = {}): PropertyDecorator {
  return Rules(
    doc(options.optional, { example: 'en', ...options.api }),
    ...presence(options),
    Lower(),
    IsString(),
    Matches(/^[a-z]{2}(-[a-z]{2})?$/, {
      message: ({ property }) => `${property} must be a language code such as en`,
    }),
  );
}

/** A device class: desktop, mobile or tablet (lower-cased). */
export function Device(options: FieldOptions = {}): PropertyDecorator {
  return Rules(
    doc(options.optional, { enum: DEVICES, ...options.api }),
    ...presence(options),
    Lower(),
    IsIn(DEVICES),
  );
}

interface OneOfOptions extends FieldOptions {
  /** The message when the value is not in the list (default: class-validator's "must be one of the following values: …"). */
  message?: string;
}

/** One value of a fixed list, taken as posted (not trimmed or lower-cased). */
export function OneOf(values: readonly string[], options: OneOfOptions = {}): PropertyDecorator {
  return Rules(
    doc(options.optional, { enum: values, ...options.api }),
    ...presence(options),
    IsIn(values, options.message === undefined ? undefined : { message: options.message }),
  );
}

/**
 * An optional query value read leniently: one of `values`; anything else (absent, unknown,
 * repeated) falls back to `fallback` without an error, where the service reads it.
 */
export function FallsBackTo(values: readonly string[], fallback: string): PropertyDecorator {
  return Rules(
    ApiPropertyOptional({
      enum: values,
      default: fallback,
      description: `Unrecognized values fall back to ${fallback}`,
    }),
    IsOptional(),
  );
}

/** A strict calendar date `YYYY-MM-DD`. */
export function PlainDateField(options: FieldOptions = {}): PropertyDecorator {
  return Rules(
    doc(options.optional, { format: 'date', ...options.api }),
    ...presence(options),
    IsPlainDate(),
  );
}

/** A calendar month `YYYY-MM` (UTC), e.g. a ledger's month. */
export function MonthField(options: FieldOptions = {}): PropertyDecorator {
  return Rules(
    Text(7, {
      ...options,
      api: { example: '2026-09', description: 'A calendar month (UTC), YYYY-MM', ...options.api },
    }),
    Matches(/^\d{4}-(0[1-9]|1[0-2])$/, {
      message: ({ property }) => `${property} must be a month as YYYY-MM`,
    }),
  );
}

interface TextOptions extends FieldOptions {
  /** Lower-case the value (after trimming). */
  lower?: boolean;
}

/** A non-empty trimmed string of at most `maxLength` characters. */
export function Text(maxLength: number, options: TextOptions = {}): PropertyDecorator {
  return Rules(
    doc(options.optional, { maxLength, ...options.api }),
    ...presence(options),
    options.lower
      ? Lower()
      : Transform(({ value }: { value: unknown }) =>
          typeof value === 'string' ? value.trim() : value,
        ),
    IsString(),
    IsNotEmpty(),
    MaxLength(maxLength),
  );
}

/** A number within [min, max] or null (integer when `integer`). */
export function NullableNumber(
  min: number,
  max: number,
  integer: boolean,
  options: FieldOptions = {},
): PropertyDecorator {
  return Rules(
    doc(options.optional, {
      type: integer ? 'integer' : 'number',
      minimum: min,
      maximum: max,
      nullable: true,
      ...options.api,
    }),
    // Required here means present: null is a value ("none"), only an absent member is refused.
    ...(options.optional
      ? [IsOptional()]
      : [Required({ nullable: true, message: options.missing })]),
    IsNullableNumber(min, max, integer),
  );
}

interface BatchOptions {
  /** Accept an empty list (default: at least one item). */
  allowEmpty?: boolean;
}

/** A batch of 1 (0 with `allowEmpty`) to MAX_BATCH nested items, each validated as `item`. */
export function Batch(
  item: new () => object,
  what: string,
  options: BatchOptions = {},
): PropertyDecorator {
  return Rules(
    ApiProperty({ type: [item], maxItems: MAX_BATCH }),
    Required(),
    IsArray(),
    ...(options.allowEmpty ? [] : [ArrayMinSize(1)]),
    ArrayMaxSize(MAX_BATCH, {
      message: `A batch holds at most ${MAX_BATCH} ${what}; split it into several requests.`,
    }),
    ValidateNested({ each: true }),
    Type(() => item),
  );
}

/**
 * A non-empty string of at most `maxLength` characters, kept exactly as posted (not trimmed):
 * for values that are data, such as a search query or a page URL.
 */
export function VerbatimText(maxLength: number, options: FieldOptions = {}): PropertyDecorator {
  return Rules(
    doc(options.optional, { maxLength, ...options.api }),
    ...presence(options),
    IsString(),
    IsNotEmpty(),
    MaxLength(maxLength),
  );
}

/** Any string of at most `maxLength` characters, kept as posted ('' allowed, not trimmed). */
export function AnyText(maxLength: number, options: FieldOptions = {}): PropertyDecorator {
  return Rules(
    doc(options.optional, { maxLength, ...options.api }),
    ...presence(options),
    IsString(),
    MaxLength(maxLength),
  );
}

/** A boolean (JSON true or false). */
export function Flag(options: FieldOptions = {}): PropertyDecorator {
  return Rules(doc(options.optional, { ...options.api }), ...presence(options), IsBoolean());
}

/** An ingested count: an integer from 0 to INGEST_INT_MAX (the upper bound is not documented). */
export function Count(options: FieldOptions = {}): PropertyDecorator {
  return Rules(
    doc(options.optional, { type: 'integer', minimum: 0, ...options.api }),
    ...presence(options),
    IsInt(),
    Min(0),
    Max(INGEST_INT_MAX),
  );
}

/** A finite number within [min, max] (no NaN, no Infinity). */
export function BoundedNumber(
  min: number,
  max: number,
  options: FieldOptions = {},
): PropertyDecorator {
  return Rules(
    doc(options.optional, { type: 'number', minimum: min, maximum: max, ...options.api }),
    ...presence(options),
    IsNumber({ allowNaN: false, allowInfinity: false }),
    Min(min),
    Max(max),
  );
}

/**
 * A new password: a string of PASSWORD_MIN_LENGTH to PASSWORD_MAX_LENGTH (12-256) characters,
 * counted as Unicode code points and kept exactly as posted (never trimmed).
 */
export function NewPassword(options: FieldOptions = {}): PropertyDecorator {
  return Rules(
    doc(options.optional, {
      format: 'password',
      minLength: PASSWORD_MIN_LENGTH,
      maxLength: PASSWORD_MAX_LENGTH,
      ...options.api,
    }),
    ...presence(options),
    IsString(),
    ValidateBy({
      name: 'isPasswordLength',
      validator: {
        validate: (v: unknown) => typeof v !== 'string' || isAcceptablePassword(v),
        defaultMessage: (args) =>
          `${args?.property} must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`,
      },
    }),
  );
}
