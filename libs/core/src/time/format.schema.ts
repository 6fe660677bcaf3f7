import { z } from 'zod';

/**
 * The spec's date formats as zod schemas, for the answer schemas (the OpenAPI document's
 * components, libs/gateway/src/api-docs.ts) of the API and of the libraries.
 */

/** `YYYY-MM-DD HH:MM:SS` (UTC), the spec's record timestamps (recordTimestamp). */
export const recordTimestampSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
  .meta({
    description: 'Record timestamp, YYYY-MM-DD HH:MM:SS (UTC)',
    example: '2026-11-24 09:30:00',
  });

/** `YYYY-MM-DD`, the spec's plain dates (plainDate). */
export const plainDateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .meta({ description: 'Date, YYYY-MM-DD', example: '2026-11-24' });
