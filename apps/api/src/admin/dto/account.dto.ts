import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  Min,
  ValidateBy,
  ValidateNested,
  ValidationOptions,
  Max,
} from 'class-validator';
import { PlanName } from '@app/database';
import { PLAN_NAMES } from '@app/billing';
import { Trim } from '@app/gateway';

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

export class OverridesDto {
  @ApiPropertyOptional({
    oneOf: [{ type: 'integer' }, { type: 'string', enum: ['unlimited'] }],
    nullable: true,
  })
  @IsOptional()
  @IsOverride(true)
  api_calls_per_month?: number | 'unlimited' | null;
  @ApiPropertyOptional({ type: 'integer', nullable: true })
  @IsOptional()
  @IsOverride(false)
  requests_per_minute?: number | null;
  @ApiPropertyOptional({ type: 'integer', nullable: true })
  @IsOptional()
  @IsOverride(false)
  keyword_research_per_month?: number | null;
  @ApiPropertyOptional({ type: 'integer', nullable: true })
  @IsOptional()
  @IsOverride(false)
  backlinks_per_month?: number | null;
  @ApiPropertyOptional({ type: 'integer', nullable: true })
  @IsOptional()
  @IsOverride(false)
  site_audit_crawls_per_month?: number | null;
  @ApiPropertyOptional({ type: 'integer', nullable: true })
  @IsOptional()
  @IsOverride(false)
  site_audit_pages_per_crawl?: number | null;
  @ApiPropertyOptional({ type: 'integer', nullable: true })
  @IsOptional()
  @IsOverride(false)
  site_audit_rolling_page_budget?: number | null;
}

export class CreateAccountDto {
  @ApiProperty({ maxLength: 200 })
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name: string;

  @ApiProperty({ enum: PLAN_NAMES })
  @IsIn(PLAN_NAMES)
  plan: PlanName;
}

export class UpdateAccountDto {
  @ApiPropertyOptional({ maxLength: 200 })
  @IsOptional()
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name?: string;

  @ApiPropertyOptional({ enum: PLAN_NAMES })
  @IsOptional()
  @IsIn(PLAN_NAMES)
  plan?: PlanName;

  @ApiPropertyOptional({ type: OverridesDto })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => OverridesDto)
  overrides?: OverridesDto;
}

export class CreateApiKeyDto {
  @ApiProperty({ maxLength: 100 })
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  label: string;
}

export class CreditsDto {
  @ApiProperty({
    type: 'integer',
    description: 'Credits to add (negative to take away); the balance never goes below 0',
  })
  @IsInt()
  @Min(-MAX_LIMIT)
  @Max(MAX_LIMIT)
  amount: number;

  @ApiProperty({ maxLength: 200 })
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  reason: string;
}
