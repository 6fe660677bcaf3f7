import { Transform } from 'class-transformer';
import { ValidationOptions } from 'class-validator';

/** Largest batch one ingestion call accepts (checks, GSC rows, competitors). */
export const MAX_BATCH = 10_000;

export const batchSizeMessage = (what: string): ValidationOptions => ({
  message: `A batch holds at most ${MAX_BATCH} ${what}; split it into several requests.`,
});

/** Trims and lower-cases a string; leaves anything else for the type checks to refuse. */
export function Lower(): PropertyDecorator {
  return Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' ? value.trim().toLowerCase() : value,
  );
}

/** Trims a string value. */
export function TrimBody(): PropertyDecorator {
  return Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' ? value.trim() : value,
  );
}

export const DOMAIN_PATTERN =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/;
export const DEVICES = ['desktop', 'mobile', 'tablet'] as const;
export const INT_MAX = 2_000_000_000;
