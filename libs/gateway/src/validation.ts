import { ArgumentMetadata, Injectable, ValidationError, ValidationPipe } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { ApiError, FieldError } from '@app/core';

/**
 * One {field, message} per field: the first rule that failed for it (nested members as
 * `checks.0.position`). A field whose own rule failed is not also reported for its members.
 */
function fieldErrors(errors: ValidationError[], parent = ''): FieldError[] {
  const out: FieldError[] = [];
  for (const e of errors) {
    const field = parent ? `${parent}.${e.property}` : e.property;
    const [message] = Object.values(e.constraints ?? {});
    if (message !== undefined) out.push({ field, message });
    else if (e.children?.length) out.push(...fieldErrors(e.children, field));
  }
  return out;
}

/**
 * The global ValidationPipe: transforms, strips unknown members, and answers 422
 * VALIDATION_ERROR with one {field, message} per field that failed: the first of its rules
 * that failed (`stopAtFirstError`; the rules are listed presence → type → length, range or
 * format, see `Rules` in dto-fields.ts), so an absent value reads "<field> is required" and
 * nothing else. The error's message joins them with "; ". A body or query that is not an
 * object (a JSON array, a string) is refused the same way.
 */
@Injectable()
export class ApiValidationPipe extends ValidationPipe {
  constructor() {
    super({
      transform: true,
      whitelist: true,
      forbidUnknownValues: false,
      stopAtFirstError: true,
      transformOptions: { enableImplicitConversion: false },
      validationError: { target: false, value: false },
      exceptionFactory: (errors: ValidationError[]) => {
        const details = fieldErrors(errors);
        return new ApiError(
          'VALIDATION_ERROR',
          details.map((d) => d.message).join('; ') || 'Invalid request.',
          {
            details,
          },
        );
      },
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const isDto =
      (metadata.type === 'body' || metadata.type === 'query') &&
      typeof metadata.metatype === 'function' &&
      ![String, Number, Boolean, Array, Object].includes(metadata.metatype as never);
    // Only DTO classes are validated here; path ids and other primitives go through their own pipes.
    if (!isDto) return value;
    if (value === undefined || value === null) value = {};
    if (typeof value !== 'object' || Array.isArray(value)) {
      const where = metadata.type === 'body' ? 'body' : 'query';
      throw new ApiError('VALIDATION_ERROR', `The request ${where} must be a JSON object.`, {
        details: [{ field: where, message: `${where} must be an object` }],
      });
    }
    return super.transform(value, metadata);
  }
}

/**
 * Query integers: converts a string of digits to a number and leaves anything else as it
 * is, so @IsInt() refuses "1.5", "abc", "", "1e3" and repeated parameters.
 */
export function ToInt(): PropertyDecorator {
  return Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && /^-?\d{1,15}$/.test(value) ? Number(value) : value,
  );
}

/** Query strings: trims a single value; leaves repeated parameters (arrays) for @IsString() to refuse. */
export function Trim(): PropertyDecorator {
  return Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' ? value.trim() : value,
  );
}

/** Largest PostgreSQL integer: the largest record id. */
export const PG_INT_MAX = 2_147_483_647;

/**
 * Path ids: a positive integer that fits PostgreSQL's integer, else 404 NOT_FOUND (an id
 * that cannot exist does not exist).
 */
@Injectable()
export class ParseIdPipe {
  transform(value: unknown): number {
    if (typeof value === 'string' && /^[1-9]\d{0,9}$/.test(value) && Number(value) <= PG_INT_MAX) {
      return Number(value);
    }
    throw new ApiError('NOT_FOUND', 'Not found.');
  }
}
