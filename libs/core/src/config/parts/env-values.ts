import { z } from 'zod';

/**
 * The value parsers the configuration parts share: each reads one environment variable
 * (a string or unset) and adds a message naming what it expects when the value is invalid.
 */

/** `true`/`1`/`yes` or `false`/`0`/`no` (any case); unset or empty: `fallback`. */
export const bool = (name: string, fallback: boolean) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return fallback;
      const s = v.trim().toLowerCase();
      if (['true', '1', 'yes'].includes(s)) return true;
      if (['false', '0', 'no'].includes(s)) return false;
      ctx.addIssue({ code: 'custom', message: `${name} must be true or false` });
      return z.NEVER;
    });

/** A whole number from `min` to `max`; unset or empty: `fallback`. */
export const int = (min: number, max: number, fallback: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return fallback;
      if (!/^\d+$/.test(v.trim())) {
        ctx.addIssue({ code: 'custom', message: `must be an integer from ${min} to ${max}` });
        return z.NEVER;
      }
      const n = Number(v.trim());
      if (n < min || n > max) {
        ctx.addIssue({ code: 'custom', message: `must be an integer from ${min} to ${max}` });
        return z.NEVER;
      }
      return n;
    });

/** A URL with one of `protocols`, without trailing slashes; unset or empty: `fallback`. */
export const url = (protocols: string[], fallback?: string) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      const value = v === undefined || v === '' ? fallback : v.trim();
      if (value === undefined) return undefined;
      try {
        const parsed = new URL(value);
        if (!protocols.includes(parsed.protocol)) throw new Error('protocol');
        return value.replace(/\/+$/, '');
      } catch {
        ctx.addIssue({
          code: 'custom',
          message: `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`,
        });
        return z.NEVER;
      }
    });

/** An optional secret token of at least 16 characters; unset or empty: undefined. */
export const token = () =>
  z
    .string()
    .optional()
    .transform((v) => (v === undefined || v === '' ? undefined : v))
    .pipe(z.string().min(16, 'must be at least 16 characters').optional());
