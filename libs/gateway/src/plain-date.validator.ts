import { ValidateBy, ValidationOptions } from 'class-validator';
import { parsePlainDate } from '@app/core';

/** A strict `YYYY-MM-DD` calendar date string (2023-02-29 and 2023-2-1 are refused). */
export function IsPlainDate(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isPlainDate',
      validator: {
        validate: (v: unknown) => typeof v === 'string' && parsePlainDate(v) !== null,
        defaultMessage: (args) =>
          `${args?.property} must be a calendar date in the form YYYY-MM-DD`,
      },
    },
    options,
  );
}

/** A finite number within [min, max], or null. Present members only (combine with presence checks). */
export function IsNullableNumber(
  min: number,
  max: number,
  integer: boolean,
  options?: ValidationOptions,
): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isNullableNumber',
      validator: {
        validate: (v: unknown) =>
          v === null ||
          (typeof v === 'number' &&
            Number.isFinite(v) &&
            v >= min &&
            v <= max &&
            (!integer || Number.isInteger(v))),
        defaultMessage: (args) =>
          `${args?.property} must be null or ${integer ? 'an integer' : 'a number'} from ${min} to ${max}`,
      },
    },
    options,
  );
}
