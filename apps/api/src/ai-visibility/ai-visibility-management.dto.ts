import { ApiProperty, PartialType } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsOptional, ValidateBy, ValidateNested } from 'class-validator';
import { OneOf, Required, Rules, Text } from '@app/gateway';
import {
  KeywordLanguage,
  MarketCountry,
  NoControlCharacters,
  ProjectDomain,
} from '../rank/rank-management.dto';

/** The engines a project's prompts are asked on (docs/ai-visibility-management.md). */
export const AI_ENGINES = ['chatgpt', 'claude', 'gemini', 'perplexity'] as const;
/** How often a project is scanned. */
export const TRACKING_FREQUENCIES = ['daily', 'weekly'] as const;
/** Most competitors a project tracks. */
export const MAX_PROJECT_COMPETITORS = 20;
/** Most brand aliases a project has. */
export const MAX_BRAND_ALIASES = 20;
/** Shortest and longest prompt (after trimming and collapsing inner whitespace). */
export const PROMPT_LENGTH = { min: 3, max: 500 } as const;
/**
 * Most prompts a body may carry whatever the plan (the plan's
 * ai_visibility_prompts_per_project, 402 past it, is the limit that counts).
 */
export const MAX_PROMPTS_PER_BODY = 1000;
/** Longest brand name, alias or competitor name. */
const MAX_NAME_LENGTH = 200;

/** Trimmed, inner whitespace collapsed to one space; anything else left for the checks. */
const collapse = (v: unknown): unknown =>
  typeof v === 'string' ? v.replace(/\s+/g, ' ').trim() : v;

const hasControl = (v: string): boolean =>
  [...v].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);

/**
 * A list of distinct texts (compared case-insensitively), each `min`-`max` characters after
 * trimming and collapsing whitespace, without control characters. One message for the list,
 * naming the first item at fault.
 */
function TextList(
  min: number,
  max: number,
  maxItems: number,
  options: { optional?: boolean; minItems?: number; description: string },
): PropertyDecorator {
  const problem = (v: unknown, property: string): string | null => {
    if (!Array.isArray(v)) return `${property} must be an array of strings`;
    if (v.length < (options.minItems ?? 0))
      return `${property} must hold at least ${options.minItems} item`;
    if (v.length > maxItems) return `${property} holds at most ${maxItems} items`;
    const seen = new Set<string>();
    for (const [i, item] of v.entries()) {
      if (typeof item !== 'string') return `${property}.${i} must be a string`;
      if (item.length < min || item.length > max)
        return `${property}.${i} must be ${min}-${max} characters`;
      if (hasControl(item)) return `${property}.${i} must not contain control characters`;
      const key = item.toLowerCase();
      if (seen.has(key)) return `${property}.${i} repeats an earlier item (items must be distinct)`;
      seen.add(key);
    }
    return null;
  };
  return Rules(
    ApiProperty({
      type: [String],
      required: !options.optional,
      minItems: options.minItems,
      maxItems,
      description: options.description,
    }),
    options.optional ? IsOptional() : Required(),
    Transform(({ value }: { value: unknown }) =>
      Array.isArray(value) ? value.map(collapse) : value,
    ),
    ValidateBy({
      name: 'textList',
      validator: {
        validate: (v: unknown, args) => problem(v, args?.property ?? '') === null,
        defaultMessage: (args) => problem(args?.value, args?.property ?? '') ?? '',
      },
    }),
  );
}

/** A tracked competitor: its name as answers write it and its domain. */
export class AiCompetitorDto {
  @Rules(Text(MAX_NAME_LENGTH, { api: { example: 'Rival' } }), NoControlCharacters())
  name: string;

  @ProjectDomain()
  domain: string;
}

export class NewAiProjectDto {
  @ProjectDomain()
  domain: string;

  @Rules(Text(MAX_NAME_LENGTH, { api: { example: 'Example' } }), NoControlCharacters())
  brand_name: string;

  @TextList(1, MAX_NAME_LENGTH, MAX_BRAND_ALIASES, {
    optional: true,
    description:
      'Other names the brand goes by (matched like the name: whole words, any case); distinct',
  })
  brand_aliases?: string[];

  @MarketCountry({ required: true })
  target_country: string;

  @KeywordLanguage({ required: true })
  target_language: string;

  @Rules(
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' ? value.trim().toLowerCase() : value,
    ),
    OneOf(AI_ENGINES),
  )
  ai_engine: (typeof AI_ENGINES)[number];

  @Rules(
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' ? value.trim().toLowerCase() : value,
    ),
    OneOf(TRACKING_FREQUENCIES),
  )
  tracking_frequency: (typeof TRACKING_FREQUENCIES)[number];

  @TextList(PROMPT_LENGTH.min, PROMPT_LENGTH.max, MAX_PROMPTS_PER_BODY, {
    minItems: 1,
    description:
      `The questions asked, ${PROMPT_LENGTH.min}-${PROMPT_LENGTH.max} characters each, distinct; ` +
      'at most the plan’s ai_visibility_prompts_per_project (402 past it)',
  })
  prompts: string[];

  @Rules(
    ApiProperty({ type: [AiCompetitorDto], required: false, maxItems: MAX_PROJECT_COMPETITORS }),
    IsOptional(),
    IsArray({ message: ({ property }) => `${property} must be an array of {name, domain}` }),
    ArrayMaxSize(MAX_PROJECT_COMPETITORS, {
      message: `competitors holds at most ${MAX_PROJECT_COMPETITORS} competitors`,
    }),
    ValidateBy({
      name: 'competitorObjects',
      validator: {
        validate: (v: unknown) => !Array.isArray(v) || v.every((c) => c instanceof AiCompetitorDto),
        defaultMessage: (args) => `each item of ${args?.property} must be an object {name, domain}`,
      },
    }),
    ValidateNested({ each: true }),
    Type(() => AiCompetitorDto),
  )
  competitors?: AiCompetitorDto[];
}

/** Any member of the create body; an absent (or null) member is left as it is. */
export class AiProjectChangesDto extends PartialType(NewAiProjectDto) {}
