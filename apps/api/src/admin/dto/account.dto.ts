import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsInt,
  IsObject,
  IsOptional,
  Max,
  Min,
  ValidateBy,
  ValidateNested,
  ValidationOptions,
} from 'class-validator';
import { PLAN_NAMES, PlanName } from '@app/plans';
import { OneOf, PG_INT_MAX, QueryInt, Required, Rules, Text } from '@app/gateway';

const MAX_LIMIT = 1_000_000_000;

/** An override value: null (remove), a whole number 0..1e9, or "unlimited" where allowed. */
function IsOverride(allowUnlimited: boolean, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isOverride',
      validator: {
        validate: (v: unknown) =>
          v === null ||
          (allowUnlimited && v === 'unlimited') ||
          (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= MAX_LIMIT),
        defaultMessage: (args) =>
          `${args?.property} must be null, an integer from 0 to ${MAX_LIMIT}${allowUnlimited ? ' or "unlimited"' : ''}`,
      },
    },
    options,
  );
}

/**
 * An optional limit override: null (remove), a whole number, or "unlimited" where allowed.
 * Decorators listed bottom-up (the order they would apply when stacked on the property).
 */
function Override(allowUnlimited = false): PropertyDecorator {
  return applyDecorators(
    IsOverride(allowUnlimited),
    IsOptional(),
    ApiPropertyOptional(
      allowUnlimited
        ? { oneOf: [{ type: 'integer' }, { type: 'string', enum: ['unlimited'] }], nullable: true }
        : { type: 'integer', nullable: true },
    ),
  );
}

export class OverridesDto {
  @Override(true)
  api_calls_per_month?: number | 'unlimited' | null;
  @Override()
  requests_per_minute?: number | null;
  @Override()
  keyword_research_per_month?: number | null;
  @Override()
  backlinks_per_month?: number | null;
  @Override()
  site_audit_crawls_per_month?: number | null;
  @Override()
  site_audit_pages_per_crawl?: number | null;
  @Override()
  site_audit_rolling_page_budget?: number | null;
  @Override()
  tracked_keywords?: number | null;
  @Override()
  ai_visibility_projects?: number | null;
  @Override()
  ai_visibility_prompts_per_project?: number | null;
  @Override()
  gsc_properties?: number | null;
}

export class CreateAccountDto {
  @Text(200)
  name: string;

  @OneOf(PLAN_NAMES)
  plan: PlanName;
}

export class UpdateAccountDto {
  @Text(200, { optional: true })
  name?: string;

  @OneOf(PLAN_NAMES, { optional: true })
  plan?: PlanName;

  @ApiPropertyOptional({ type: OverridesDto })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => OverridesDto)
  overrides?: OverridesDto;
}

export class CreateApiKeyDto {
  @Text(100)
  label: string;
}

export class CreditsDto {
  @ApiProperty({
    type: 'integer',
    description: 'Credits to add (negative to take away); the balance never goes below 0',
  })
  @Rules(Required(), IsInt(), Min(-MAX_LIMIT), Max(MAX_LIMIT))
  amount: number;

  @Text(200)
  reason: string;
}

/** GET /admin/v1/accounts: search and paging. */
export class AccountListQueryDto {
  @Text(254, {
    optional: true,
    api: {
      example: 'acme',
      description:
        'Only accounts whose name or one of whose users’ e-mails contains this text ' +
        '(case-insensitive; % and _ are matched literally)',
    },
  })
  q?: string;

  @QueryInt(1, 100, { optional: true, api: { default: 20, description: 'Accounts per page' } })
  limit: number = 20;

  @QueryInt(0, PG_INT_MAX, {
    optional: true,
    api: { default: 0, description: 'Accounts to skip (newest first)' },
  })
  offset: number = 0;
}
